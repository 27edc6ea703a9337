/** The digest email's HTML part, rendered from React components: what a mail client shows, and nothing a visitor typed as markup. */
import * as cheerio from 'cheerio';
import { describe, expect, it } from 'vitest';
import { composeEmail } from './notification-messages.ts';

describe('email HTML', () => {
  it('lists a digest’s first twenty interactions as text, counts the rest and links the site', () => {
    const items = Array.from({ length: 23 }, (_, i) => ({ message: `Ada <img src=x onerror=alert(${i})> commented`, created_at: Date.UTC(2026, 10, 27, 9, i) }));
    const email = composeEmail(items, { siteTitle: 'Harbour "Lights"', siteUrl: 'https://dropsite.example/s/harbour?a=1&b=2', dashboardUrl: 'https://dropsite.example/dashboard' });
    expect(email.html.startsWith('<!doctype html><html>')).toBe(true);
    const $ = cheerio.load(email.html);
    expect($('h1').text()).toBe('23 new interactions on "Harbour "Lights""');
    expect($('li')).toHaveLength(21);
    expect($('li').first().text()).toBe('Ada <img src=x onerror=alert(0)> commented (2026-11-27 09:00 UTC)');
    expect($('li').last().text()).toBe('and 3 more');
    expect($('img')).toHaveLength(0);
    expect(
      $('a')
        .map((_, a) => [[$(a).text(), $(a).attr('href')]])
        .get(),
    ).toEqual([
      ['View the site', 'https://dropsite.example/s/harbour?a=1&b=2'],
      ['See all activity', 'https://dropsite.example/dashboard'],
    ]);
  });
});
