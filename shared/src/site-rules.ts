/**
 * The names of a site's themes and hero layouts, and the site password's limits: without zod, so the
 * upload wizard's first screen needs none of ./schemas.ts. (A site's settings: ./site-settings-catalogue.ts.)
 */

export const THEME_STYLES = ['professional', 'creative', 'nature', 'minimal', 'elegant'] as const;
export const THEME_MODES = ['light', 'dark'] as const;
export const HERO_LAYOUTS = ['minimal', 'centered', 'split', 'featured'] as const;

/** A site's password, when one is set: long enough that guessing (rate limited as it is) gets nowhere. */
export const SITE_PASSWORD_LIMITS = { minLength: 8, maxLength: 200 } as const;
export const SITE_PASSWORD_MESSAGES = {
  tooShort: `Password must be at least ${SITE_PASSWORD_LIMITS.minLength} characters`,
  tooLong: `Password must be at most ${SITE_PASSWORD_LIMITS.maxLength} characters`,
} as const;
