/**
 * The Help Center's search box: filters the prerendered categories as the visitor types, with the
 * same pure filter as its test, and says how many match in a live region. Without JavaScript every
 * category simply stays visible.
 */
import { describeHelpResults, filterHelpCategories, type THelpSearchEntry } from '../content/help-filter.ts';

export function mount(root: HTMLElement): void {
  const form = root.querySelector<HTMLFormElement>('[data-help-form]');
  const input = root.querySelector<HTMLInputElement>('[data-help-input]');
  const status = root.querySelector<HTMLElement>('[data-help-status]');
  const empty = root.querySelector<HTMLElement>('[data-help-empty]');
  const emptyQuery = root.querySelector<HTMLElement>('[data-help-empty-query]');
  const items = [...root.querySelectorAll<HTMLElement>('[data-help-category]')];
  if (!form || !input || !status || !empty || !emptyQuery) return;

  const text = (item: HTMLElement, selector: string) => item.querySelector(selector)?.textContent ?? '';
  const entries: THelpSearchEntry[] = items.map((item) => ({
    title: text(item, '[data-help-title]'),
    description: text(item, '[data-help-description]'),
    articleTitles: [...item.querySelectorAll('[data-help-article-title]')].map((title) => title.textContent ?? ''),
  }));

  const apply = () => {
    const query = input.value;
    const shown = new Set(filterHelpCategories(entries, query));
    items.forEach((item, index) => {
      item.hidden = !shown.has(index);
    });
    empty.hidden = shown.size > 0;
    emptyQuery.textContent = query.trim();
    status.textContent = describeHelpResults(query, shown.size, items.length);
  };

  input.addEventListener('input', apply);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    apply();
  });

  const initial = new URLSearchParams(window.location.search).get('q');
  if (initial) {
    input.value = initial;
    apply();
  }
}
