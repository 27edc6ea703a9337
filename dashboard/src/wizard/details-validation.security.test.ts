/** The wizard asks for a site password of at least 8 characters before it lets the creator go on (the server refuses shorter ones too). */
import { describe, expect, it } from 'vitest';
import { SITE_PASSWORD_MESSAGES, ZSitePasswordSchema } from '@dropsite/shared';
import { DETAILS_MESSAGES, validateDetails } from './details-validation.ts';

const now = new Date(2026, 4, 12, 18, 30);
const form = { title: 'Saturday portraits', description: 'For review', expiryDate: '' };

describe('the details step and the site password', () => {
  it('refuses a password shorter than 8 characters with the server rule’s message', () => {
    for (const password of ['x', 'harper', '1234567']) {
      const result = validateDetails({ ...form, password }, now);
      expect(result.canContinue, password).toBe(false);
      expect(result.password).toBe(SITE_PASSWORD_MESSAGES.tooShort);
      expect(ZSitePasswordSchema.safeParse(password).success).toBe(false);
    }
    expect(DETAILS_MESSAGES.passwordShort).toBe('Password must be at least 8 characters');
  });

  it('accepts no password (blank) or one of 8 characters and more', () => {
    for (const password of ['', '   ', '12345678', 'correct horse battery']) {
      const result = validateDetails({ ...form, password }, now);
      expect(result.canContinue, JSON.stringify(password)).toBe(true);
      expect(result.password).toBeNull();
    }
  });
});
