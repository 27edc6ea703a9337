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
