/**
 * The blog list's categories and its filter, shared by the page (rendered at build time) and the
 * `blog-filter` island (in the browser): plain TypeScript, no schema library.
 */
export const BLOG_CATEGORIES = ['Photography', 'Sales', 'Agency Tools', 'Business Tips'] as const;
export type TBlogCategory = (typeof BLOG_CATEGORIES)[number];

/** What a chip chooses: one category, or every article. */
export type TBlogChoice = TBlogCategory | 'All';
export const BLOG_CHOICES: readonly TBlogChoice[] = ['All', ...BLOG_CATEGORIES];

export function isBlogChoice(value: unknown): value is TBlogChoice {
  return typeof value === 'string' && (BLOG_CHOICES as readonly string[]).includes(value);
}

/** Whether an article of `category` shows under the chosen chip. */
export function matchesChoice(category: string, choice: TBlogChoice): boolean {
  return choice === 'All' || category === choice;
}

/** What the list says after a chip is chosen: the count, or an honest empty text. */
export function describeChoice(choice: TBlogChoice, shown: number): string {
  if (shown === 0) return choice === 'All' ? 'No articles yet.' : `No articles in ${choice} yet. Choose another category, or All.`;
  const articles = shown === 1 ? '1 article' : `${shown} articles`;
  return choice === 'All' ? `Showing all ${articles}.` : `Showing ${articles} in ${choice}.`;
}

/** A choice in the address, so a filtered list can be shared and kept on reload: 'Agency Tools' ↔ '?category=agency-tools'. */
const slugOf = (choice: TBlogChoice) => choice.toLowerCase().replace(/\s+/g, '-');

/** The choice the address names (`?category=agency-tools`); All without one or for an unknown one. */
export function choiceFromSearch(search: string): TBlogChoice {
  const wanted = new URLSearchParams(search).get('category');
  return BLOG_CHOICES.find((choice) => choice !== 'All' && slugOf(choice) === wanted) ?? 'All';
}

/** The query that names a choice: empty for All. */
export function searchForChoice(choice: TBlogChoice): string {
  return choice === 'All' ? '' : `?category=${slugOf(choice)}`;
}
