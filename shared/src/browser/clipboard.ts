/**
 * Copies text to the clipboard; where the async clipboard API is missing or refused (an older
 * browser, a page that is not a secure context) a hidden textarea and execCommand do it.
 * Answers whether the text was copied.
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.append(area);
    area.select();
    let isCopied = false;
    try {
      isCopied = document.execCommand('copy');
    } catch {
      isCopied = false;
    }
    area.remove();
    return isCopied;
  }
}
