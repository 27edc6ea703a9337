/**
 * The template gallery's pictures: one that cannot be loaded (a demo site not built yet) is
 * hidden, so its card shows the template's name in the frame instead of a broken image.
 */
export function mount(root: HTMLElement): void {
  for (const img of root.querySelectorAll<HTMLImageElement>('img')) {
    const hide = () => img.setAttribute('data-missing', '');
    if (img.complete && img.naturalWidth === 0 && img.currentSrc) hide();
    else img.addEventListener('error', hide, { once: true });
  }
}
