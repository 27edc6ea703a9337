import { describe, expect, it } from 'vitest';
import { BLOG_CHOICES, choiceFromSearch, describeChoice, isBlogChoice, matchesChoice, searchForChoice } from './blog-filter.ts';

describe('the blog filter', () => {
  it('offers All and the four categories, in the chips’ order', () => {
    expect(BLOG_CHOICES).toEqual(['All', 'Photography', 'Sales', 'Agency Tools', 'Business Tips']);
  });

  it('shows every article under All and only the category’s under a category', () => {
    expect(matchesChoice('Photography', 'All')).toBe(true);
    expect(matchesChoice('Photography', 'Photography')).toBe(true);
    expect(matchesChoice('Sales', 'Photography')).toBe(false);
    expect(matchesChoice('Agency Tools', 'Agency Tools')).toBe(true);
  });

  it('accepts only the known choices', () => {
    expect(isBlogChoice('Agency Tools')).toBe(true);
    expect(isBlogChoice('agency tools')).toBe(false);
    expect(isBlogChoice(undefined)).toBe(false);
  });

  it('says how many articles show, and says so plainly when a category has none', () => {
    expect(describeChoice('All', 3)).toBe('Showing all 3 articles.');
    expect(describeChoice('Photography', 1)).toBe('Showing 1 article in Photography.');
    expect(describeChoice('Business Tips', 0)).toBe('No articles in Business Tips yet. Choose another category, or All.');
  });
});

describe('the chosen category in the address', () => {
  it('names each category by a readable slug, and All by none', () => {
    expect(searchForChoice('Agency Tools')).toBe('?category=agency-tools');
    expect(searchForChoice('Photography')).toBe('?category=photography');
    expect(searchForChoice('All')).toBe('');
  });

  it('reads it back, falling back to All for a missing or unknown category', () => {
    for (const choice of BLOG_CHOICES) expect(choiceFromSearch(searchForChoice(choice))).toBe(choice);
    expect(choiceFromSearch('?category=gardening')).toBe('All');
    expect(choiceFromSearch('?category=Photography')).toBe('All');
    expect(choiceFromSearch('')).toBe('All');
  });
});
