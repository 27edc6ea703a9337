/**
 * The hero demo's switcher: previous and next step through the eight examples and wrap around at
 * either end, a dot jumps to one, the arrow keys step while focus is in the carousel, and the theme
 * menu restyles the preview with any of the ten site themes. Without this island the first example
 * shows in the preview and every example is listed below it.
 */
export function mount(root: HTMLElement): void {
  const slides = [...root.querySelectorAll<HTMLElement>('[data-slide]')];
  const dots = [...root.querySelectorAll<HTMLButtonElement>('[data-dot]')];
  const stage = root.querySelector<HTMLElement>('[data-stage]');
  const count = root.querySelector<HTMLElement>('[data-count]');
  const select = root.querySelector<HTMLSelectElement>('[data-theme-select]');
  if (slides.length === 0 || !stage) return;
  let current = 0;

  const show = (index: number) => {
    current = ((index % slides.length) + slides.length) % slides.length;
    slides.forEach((slide, i) => {
      slide.hidden = i !== current;
    });
    dots.forEach((dot, i) => {
      if (i === current) dot.setAttribute('aria-current', 'true');
      else dot.removeAttribute('aria-current');
    });
    if (count) count.textContent = `${current + 1} of ${slides.length}: ${slides[current]?.querySelector('.hero-demo__kind')?.textContent ?? ''}`;
  };

  for (const button of root.querySelectorAll<HTMLButtonElement>('[data-step]')) {
    button.addEventListener('click', () => show(current + Number(button.dataset.step)));
  }
  for (const dot of dots) dot.addEventListener('click', () => show(Number(dot.dataset.dot)));
  root.addEventListener('keydown', (event) => {
    if (event.target instanceof HTMLSelectElement) return;
    if (event.key === 'ArrowLeft') show(current - 1);
    else if (event.key === 'ArrowRight') show(current + 1);
    else return;
    event.preventDefault();
  });
  select?.addEventListener('change', () => {
    stage.dataset.theme = select.value;
  });

  for (const controls of root.querySelectorAll<HTMLElement>('[data-controls]')) controls.hidden = false;
  for (const list of root.querySelectorAll<HTMLElement>('[data-static-list]')) list.hidden = true;
  if (select) stage.dataset.theme = select.value;
  show(0);
}
