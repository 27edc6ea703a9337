/**
 * An article's 'Copy link' button: copies the article's address (its canonical /blog/{slug} on this
 * origin) and says whether it worked. Hidden until this island shows it, so it never sits there
 * doing nothing.
 */
import { copyText } from '@dropsite/shared/browser/clipboard';

const CONFIRM_MS = 2000;

export function mount(root: HTMLElement): void {
  const button = root.querySelector<HTMLButtonElement>('[data-copy]');
  const status = root.querySelector<HTMLElement>('[data-copy-status]');
  if (!button || !status) return;
  const url = new URL(root.dataset.path ?? location.pathname, location.origin).href;
  let timer: ReturnType<typeof setTimeout> | undefined;

  button.addEventListener('click', async () => {
    const isCopied = await copyText(url);
    status.textContent = isCopied ? 'Link copied.' : `Couldn’t copy. The link is ${url}`;
    clearTimeout(timer);
    if (isCopied) timer = setTimeout(() => (status.textContent = ''), CONFIRM_MS);
  });
  root.hidden = false;
}
