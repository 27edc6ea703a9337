/**
 * The FAQ's topics open and close natively (one `<details name>` group). This only opens the topic a
 * link points at (/faq#billing), on arrival and when the address's fragment changes; opening it
 * closes the others, as a click would.
 */
export function mount(root: HTMLElement): void {
  const openFromHash = () => {
    const id = decodeURIComponent(window.location.hash.slice(1));
    if (!id) return;
    const topic = root.querySelector<HTMLDetailsElement>(`details[id="${CSS.escape(id)}"]`);
    if (!topic) return;
    topic.open = true;
    topic.scrollIntoView({ block: 'start' });
  };
  openFromHash();
  window.addEventListener('hashchange', openFromHash);
}
