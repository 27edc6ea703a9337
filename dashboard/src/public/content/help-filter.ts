/**
 * The Help Center's search (spec 2, Help Center): a category matches when the query appears in its
 * title, its description or the title of one of its articles. Pure, so the page's island and its
 * test share it; it imports nothing, so the island stays a few hundred bytes.
 */

export interface THelpSearchEntry {
  title: string;
  description: string;
  articleTitles: readonly string[];
}

/** Lower case, accents removed, runs of spaces made one: 'Café  Menu' and 'cafe menu' compare equal. */
export function normalizeHelpQuery(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** The indexes of the categories the query matches, in page order; every index for a blank query. */
export function filterHelpCategories(entries: readonly THelpSearchEntry[], query: string): number[] {
  const needle = normalizeHelpQuery(query);
  const matches: number[] = [];
  entries.forEach((entry, index) => {
    if (needle === '' || [entry.title, entry.description, ...entry.articleTitles].some((field) => normalizeHelpQuery(field).includes(needle))) {
      matches.push(index);
    }
  });
  return matches;
}

/** What the live region says after a search. */
export function describeHelpResults(query: string, count: number, total: number): string {
  if (normalizeHelpQuery(query) === '') return `Showing all ${total} help categories.`;
  if (count === 0) return `No results for "${query.trim()}".`;
  return `${count} of ${total} help ${total === 1 ? 'category' : 'categories'} match "${query.trim()}".`;
}
