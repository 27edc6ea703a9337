/**
 * The blog list's category chips: shows them (without this island every article shows and there
 * are no chips), and filters the cards by the chosen category, saying how many show or, when a
 * category has none yet, saying so. The choice is kept in the address (`?category=sales`), so a
 * filtered list can be shared and survives a reload.
 */
import { choiceFromSearch, describeChoice, isBlogChoice, matchesChoice, searchForChoice, type TBlogChoice } from '../blog/blog-filter.ts';

export function mount(root: HTMLElement): void {
  const chipGroup = root.querySelector<HTMLElement>('[data-chips]');
  const status = root.querySelector<HTMLElement>('[data-status]');
  const chips = [...root.querySelectorAll<HTMLButtonElement>('[data-choice]')];
  const items = [...root.querySelectorAll<HTMLElement>('li[data-category]')];
  if (!chipGroup || chips.length === 0) return;

  const choose = (choice: TBlogChoice, announce: boolean) => {
    for (const chip of chips) chip.setAttribute('aria-pressed', String(chip.dataset.choice === choice));
    let shown = 0;
    for (const item of items) {
      const isShown = matchesChoice(item.dataset.category ?? '', choice);
      item.hidden = !isShown;
      if (isShown) shown += 1;
    }
    if (status) status.textContent = announce || shown === 0 ? describeChoice(choice, shown) : '';
  };

  for (const chip of chips) {
    chip.addEventListener('click', () => {
      const choice = chip.dataset.choice;
      if (!isBlogChoice(choice)) return;
      choose(choice, true);
      history.replaceState(history.state, '', `${location.pathname}${searchForChoice(choice)}${location.hash}`);
    });
  }
  chipGroup.hidden = false;
  const initial = choiceFromSearch(location.search);
  choose(initial, initial !== 'All');
}
