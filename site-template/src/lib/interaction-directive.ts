/**
 * `client:interaction`: an island hydrates once it is in view AND the visitor has given any input
 * (pointer move or press, touch, key, wheel, scroll, focus moving into the page). Until then a page
 * loads no island code and no React: its server-rendered HTML already shows the content (pictures at
 * their size, the PDF's first page, file names), so reading costs no script.
 *
 * Nothing done before the code arrives is lost: a click in the island (a pointer, or Enter/Space on a
 * button or link, which the browser turns into a click) is held (its default prevented) and dispatched
 * again on the same element once the island has hydrated, if that element is still in the page (a link
 * clicked to open in a new tab or window is left to the browser). A key pressed on another focused
 * element of the island (a tab-stop with keys of its own, such as the PDF page's reading keys) is held
 * and replayed the same way; Tab is never held, so focus moves as always.
 * Text typed into a field before then (the archive's search, a comment box), a choice made in a
 * <select> or a slider moved is the browser's to show at once, and is handed to the island once it
 * has hydrated, as the input it was: the island filters, sorts or seeks as if the code had been
 * there all along, and the caret stays where it was.
 * Hydration keeps the server-rendered elements, so focus stays where it was.
 *
 * Astro bundles this file with esbuild and inlines it into every page that has such an island
 * (adapter/interaction-hydration.mjs registers it); the builder hashes it with the page's other inline
 * scripts for the site's CSP. It must import nothing that would grow that inline script.
 */
import type { ClientDirective } from 'astro';

/** What counts as the visitor's first input. `scroll` and `focusin` do not bubble to window, so the listeners capture. */
const INPUT_EVENTS = ['pointermove', 'pointerdown', 'touchstart', 'keydown', 'wheel', 'scroll', 'focusin'] as const;
const LISTEN = { capture: true, passive: true } as const;

/** Elements whose keys the browser handles itself (Enter/Space become a click, typing, toggling): left alone. */
const ACTS_BY_ITSELF = 'button, a[href], input, select, textarea, summary, [contenteditable]:not([contenteditable="false"])';
const MODIFIER_KEYS = new Set(['Shift', 'Control', 'Alt', 'Meta', 'AltGraph', 'CapsLock']);

let firstInput: Promise<void> | null = null;

/** Resolves on the visitor's first input; shared by every island of the page. */
function whenInput(): Promise<void> {
  firstInput ??= new Promise<void>((resolve) => {
    const done = () => {
      for (const type of INPUT_EVENTS) window.removeEventListener(type, done, LISTEN);
      resolve();
    };
    for (const type of INPUT_EVENTS) window.addEventListener(type, done, LISTEN);
  });
  return firstInput;
}

/**
 * Resolves once any of the island's elements intersects the viewport (the island itself is `display:
 * contents`). An island that renders nothing on the server (controls that exist only in the browser)
 * is watched through the element around it.
 */
function whenVisible(island: HTMLElement): Promise<void> {
  return new Promise<void>((resolve) => {
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((entry) => entry.isIntersecting)) return;
      observer.disconnect();
      resolve();
    });
    const watched = island.children.length > 0 ? [...island.children] : [island.parentElement ?? document.body];
    for (const element of watched) observer.observe(element);
  });
}

/** Inputs whose value a visitor changes by typing or dragging (boxes and buttons are clicks, held above). */
const NOT_TYPED = new Set(['checkbox', 'radio', 'file', 'hidden', 'button', 'submit', 'reset', 'image']);

/**
 * Hands the island what the visitor typed or chose before it hydrated. React reads a field's value
 * as new only against the value it last saw, and it sees a field when the field hydrates: so the
 * field first gets its server value back, an `input` event makes React hydrate it at once with that
 * value, and then the visitor's value comes back with the `input` event a keystroke would have
 * sent. All in one task, so nothing flickers.
 */
function replayTypedValues(island: HTMLElement): void {
  for (const field of island.querySelectorAll<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>('input, textarea, select')) {
    if (field instanceof HTMLSelectElement) {
      if ([...field.options].some((option) => option.selected !== option.defaultSelected)) field.dispatchEvent(new Event('change', { bubbles: true }));
      continue;
    }
    if ((field instanceof HTMLInputElement && NOT_TYPED.has(field.type)) || field.value === field.defaultValue) continue;
    const typed = field.value;
    const isFocused = document.activeElement === field;
    let selection: [number | null, number | null] = [null, null];
    try {
      selection = [field.selectionStart, field.selectionEnd];
    } catch {
      // A field type without a caret (range, colour).
    }
    const setValue = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field) as object, 'value')?.set;
    if (!setValue) continue;
    field.value = field.defaultValue;
    field.dispatchEvent(new Event('input', { bubbles: true }));
    setValue.call(field, typed);
    field.dispatchEvent(new Event('input', { bubbles: true }));
    if (isFocused && selection[0] !== null && selection[1] !== null) field.setSelectionRange(selection[0], selection[1]);
  }
}

function mouseInit(event: MouseEvent): MouseEventInit {
  const { clientX, clientY, screenX, screenY, button, buttons, detail, ctrlKey, shiftKey, altKey, metaKey } = event;
  return { bubbles: true, cancelable: true, composed: true, view: window, clientX, clientY, screenX, screenY, button, buttons, detail, ctrlKey, shiftKey, altKey, metaKey };
}

function keyInit(event: KeyboardEvent): KeyboardEventInit {
  const { key, code, location, ctrlKey, shiftKey, altKey, metaKey } = event;
  return { bubbles: true, cancelable: true, composed: true, view: window, key, code, location, ctrlKey, shiftKey, altKey, metaKey };
}

const hydrateOnInteraction: ClientDirective = (load, _options, island) => {
  /** Activations held before hydration, in order: their element and how to dispatch them again. */
  const held: Array<{ target: Element; dispatch: () => void }> = [];

  const holdClick = (event: MouseEvent) => {
    if (!(event.target instanceof Element)) return;
    // A link opened in a new tab or window is the browser's to open, at once.
    if ((event.ctrlKey || event.metaKey || event.shiftKey) && event.target.closest('a[href]')) return;
    event.preventDefault();
    event.stopPropagation();
    const init = mouseInit(event);
    const target = event.target;
    held.push({ target, dispatch: () => target.dispatchEvent(new MouseEvent('click', init)) });
  };
  const holdKey = (event: KeyboardEvent) => {
    if (event.key === 'Tab' || MODIFIER_KEYS.has(event.key) || event.isComposing) return;
    if (!(event.target instanceof Element) || event.target.closest(ACTS_BY_ITSELF)) return;
    event.preventDefault();
    event.stopPropagation();
    const init = keyInit(event);
    const target = event.target;
    held.push({ target, dispatch: () => target.dispatchEvent(new KeyboardEvent('keydown', init)) });
  };
  island.addEventListener('click', holdClick, true);
  island.addEventListener('keydown', holdKey, true);

  void Promise.all([whenInput(), whenVisible(island)]).then(async () => {
    try {
      const hydrate = await load();
      await hydrate();
    } finally {
      island.removeEventListener('click', holdClick, true);
      island.removeEventListener('keydown', holdKey, true);
    }
    // React hydrates the element an event reaches first, so each replay runs the component's own handler.
    replayTypedValues(island);
    for (const activation of held.splice(0)) if (activation.target.isConnected) activation.dispatch();
  });
};

export default hydrateOnInteraction;
