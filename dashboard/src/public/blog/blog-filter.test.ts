import { describe, expect, it } from 'vitest';
import { BLOG_CHOICES, describeChoice, isBlogChoice, matchesChoice } from './blog-filter.ts';

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
