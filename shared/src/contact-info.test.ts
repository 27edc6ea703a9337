import { describe, expect, it } from 'vitest';
import { CONTACT_MESSAGES, ZContactInfoInputSchema, findContactInfoProblems, isContactEmail, normalizeContactLink, toPublicContactInfo } from './contact-info.ts';

const NO_CONTACT = { email: '', website: '', instagram: '', twitter: '', linkedin: '', github: '' };

/** Each accepted input is stored as its link, and each refused one is not stored at all. */
function expectContactLinks(network: 'website' | 'instagram', accepted: ReadonlyArray<[input: string, link: string]>, refused: readonly string[]): void {
  for (const [input, link] of accepted) expect(normalizeContactLink(network, input), input).toBe(link);
  for (const bad of refused) expect(normalizeContactLink(network, bad), bad).toBeNull();
}

describe('contact details', () => {
  it('takes one plain email address, nothing a mail link could carry more of', () => {
    for (const ok of ['mira@studio.example', 'first.last+tag@studio.co.uk']) expect(isContactEmail(ok), ok).toBe(true);
    for (const bad of ['', 'mira', 'mira@studio', 'a b@c.de', 'mira@studio.example?cc=x@y.z', 'a@b.c,d@e.f', '<a@b.c>', 'a@b.c&body=hi', `${'a'.repeat(250)}@b.de`]) {
      expect(isContactEmail(bad), bad).toBe(false);
    }
  });

  it('stores a website as an https link: a bare domain gets https://, http and other schemes are refused', () => {
    expectContactLinks(
      'website',
      [
        ['  ', ''],
        ['mira.studio', 'https://mira.studio/'],
        ['mira.studio/work?x=1', 'https://mira.studio/work?x=1'],
        ['https://Mira.Studio/Work', 'https://mira.studio/Work'],
      ],
      [
        'http://mira.studio',
        'javascript:alert(1)',
        'data:text/html,x',
        'mailto:a@b.c',
        'https://user:pw@mira.studio',
        'https://localhost',
        'mira',
        'mira studio.com',
        '//mira.studio',
      ],
    );
  });

  it('turns a handle into the profile link on its network, and takes profile links only on that network', () => {
    expect(normalizeContactLink('twitter', '@mira_s')).toBe('https://x.com/mira_s');
    expect(normalizeContactLink('twitter', 'https://twitter.com/mira')).toBe('https://twitter.com/mira');
    expect(normalizeContactLink('linkedin', 'mira-solberg')).toBe('https://www.linkedin.com/in/mira-solberg');
    expect(normalizeContactLink('linkedin', 'linkedin.com/in/mira')).toBe('https://linkedin.com/in/mira');
    expect(normalizeContactLink('github', 'mira')).toBe('https://github.com/mira');
    expect(normalizeContactLink('github', 'https://github.com/mira')).toBe('https://github.com/mira');
    for (const [network, bad] of [
      ['twitter', 'https://evil.example/mira'],
      ['twitter', 'https://x.com.evil.example/mira'],
      ['twitter', 'far_too_long_handle_here'],
      ['github', 'http://github.com/mira'],
      ['github', '-mira'],
      ['linkedin', 'javascript:alert(1)'],
    ] as const) {
      expect(normalizeContactLink(network, bad), `${network} ${bad}`).toBeNull();
    }
  });

  it('takes an Instagram handle or an instagram.com link, and refuses everything else', () => {
    expectContactLinks(
      'instagram',
      [
        ['@mira.photos', 'https://instagram.com/mira.photos'],
        ['mira_s', 'https://instagram.com/mira_s'],
        ['instagram.com/mira', 'https://instagram.com/mira'],
        ['https://www.instagram.com/mira/', 'https://www.instagram.com/mira/'],
      ],
      [
        'javascript:alert(1)',
        'JavaScript:alert(1)',
        'data:text/html,<script>alert(1)</script>',
        'http://instagram.com/mira',
        'https://instagram.com.evil.example/mira',
        'https://evil.example/instagram.com',
        'https://user:pw@instagram.com/mira',
        '.mira',
        'mira.',
        'mi..ra',
        'mira-s',
        'a'.repeat(31),
        '@',
        'mira s',
        '"><img src=x>',
      ],
    );
  });

  it('names each field that is wrong, and the schema applies the same rule', () => {
    expect(findContactInfoProblems(NO_CONTACT)).toEqual({});
    expect(findContactInfoProblems({ instagram: 'javascript:alert(1)' })).toEqual({ instagram: CONTACT_MESSAGES.instagram });
    expect(findContactInfoProblems({ email: 'nope', github: 'https://gitlab.com/mira' })).toEqual({ email: CONTACT_MESSAGES.email, github: CONTACT_MESSAGES.github });
    expect(ZContactInfoInputSchema.parse({ email: ' mira@studio.example ', twitter: '@mira', instagram: '@mira.photos' })).toEqual({
      ...NO_CONTACT,
      email: 'mira@studio.example',
      instagram: 'https://instagram.com/mira.photos',
      twitter: 'https://x.com/mira',
    });
    const refused = ZContactInfoInputSchema.safeParse({ website: 'javascript:alert(1)' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]).toMatchObject({ path: ['website'], message: CONTACT_MESSAGES.website });
    const refusedInstagram = ZContactInfoInputSchema.safeParse({ instagram: 'javascript:alert(1)' });
    expect(refusedInstagram.error?.issues[0]).toMatchObject({ path: ['instagram'], message: CONTACT_MESSAGES.instagram });
  });

  it('a page shows only valid stored details, and nothing but the six of them', () => {
    const stored = { email: 'javascript:alert(1)', website: 'https://mira.studio/', twitter: '', linkedin: 'x y', github: 'mira', notificationEmail: 'owner@studio.example' };
    expect(toPublicContactInfo(stored)).toEqual({ email: '', website: 'https://mira.studio/', instagram: '', twitter: '', linkedin: '', github: 'https://github.com/mira' });
    expect(toPublicContactInfo({ instagram: 'javascript:alert(1)' }).instagram).toBe('');
    expect(toPublicContactInfo({ instagram: 'https://instagram.com/mira' }).instagram).toBe('https://instagram.com/mira');
  });
});
