/** An account message's HTML part, rendered from React components: what a mail client shows, and nothing a caller typed as markup. */
import * as cheerio from 'cheerio';
import { describe, expect, it } from 'vitest';
import { accountMessage } from './account-mail.ts';

describe('account message HTML', () => {
  it('shows an account message as its text part says it, with the link under its action', () => {
    const link = 'https://dropsite.example/api/auth/undo?token=a&b="c"';
    const message = accountMessage('email_changed', 'old@example.com', link, 'new<b>@example.com');
    const $ = cheerio.load(message.html ?? '');
    expect(
      $('p')
        .map((_, p) => $(p).text())
        .get(),
    ).toEqual([
      'Your Dropsite account now uses new<b>@example.com instead of this address.',
      'It wasn’t me: restore my address',
      expect.stringContaining('If it was not you, use the link'),
      'If you asked for this yourself, there is nothing to do.',
      'Dropsite',
    ]);
    expect($('a').attr('href')).toBe(link);
    expect($('b')).toHaveLength(0);
  });
});
