import { describe, expect, it } from 'vitest';
import { describeHelpResults, filterHelpCategories, type THelpSearchEntry } from './help-filter.ts';

const ENTRIES: THelpSearchEntry[] = [
  { title: 'Getting Started', description: 'Publish your first site in a minute.', articleTitles: ['Publish your first site', 'Sign up and keep your sites'] },
  { title: 'Templates and Design', description: 'Choose how your files are presented.', articleTitles: ['Change the theme', 'Hero layouts'] },
  { title: 'Troubleshooting', description: 'When something does not work as expected.', articleTitles: ['An upload stopped', 'Café menus look wrong'] },
];

describe('filterHelpCategories', () => {
  it('keeps every category, in order, for a blank or spaces-only query', () => {
    expect(filterHelpCategories(ENTRIES, '')).toEqual([0, 1, 2]);
    expect(filterHelpCategories(ENTRIES, '   ')).toEqual([0, 1, 2]);
  });

  it('matches a category by its title, its description or one of its article titles', () => {
    expect(filterHelpCategories(ENTRIES, 'troubleshooting')).toEqual([2]);
    expect(filterHelpCategories(ENTRIES, 'presented')).toEqual([1]);
    expect(filterHelpCategories(ENTRIES, 'upload stopped')).toEqual([2]);
  });

  it('ignores case, accents and extra spaces', () => {
    expect(filterHelpCategories(ENTRIES, '  HERO   layouts ')).toEqual([1]);
    expect(filterHelpCategories(ENTRIES, 'cafe')).toEqual([2]);
  });

  it('matches every category that contains the query, in page order', () => {
    expect(filterHelpCategories(ENTRIES, 'site')).toEqual([0]);
    expect(filterHelpCategories(ENTRIES, 'your')).toEqual([0, 1]);
  });

  it('finds nothing for a query no category contains', () => {
    expect(filterHelpCategories(ENTRIES, 'qwxzv')).toEqual([]);
  });
});

describe('describeHelpResults', () => {
  it('says how many categories match, or that none do', () => {
    expect(describeHelpResults('', 6, 6)).toBe('Showing all 6 help categories.');
    expect(describeHelpResults(' theme ', 2, 6)).toBe('2 of 6 help categories match "theme".');
    expect(describeHelpResults('qwxzv', 0, 6)).toBe('No results for "qwxzv".');
  });
});
