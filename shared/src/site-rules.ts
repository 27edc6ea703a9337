/**
 * A site's settings when the creator chose none, the names of its themes and hero layouts, and the
 * site password's limits: without zod, so the upload wizard's first screen needs none of ./schemas.ts.
 */

export const THEME_STYLES = ['professional', 'creative', 'nature', 'minimal', 'elegant'] as const;
export const THEME_MODES = ['light', 'dark'] as const;
export const HERO_LAYOUTS = ['minimal', 'centered', 'split', 'featured'] as const;

/**
 * A site's settings when the creator chose none. A literal, not a parse at load time: the dashboard runs
 * zod without eval (its CSP), and a parse before that is configured would make zod probe for eval.
 */
export const DEFAULT_SITE_SETTINGS = {
  enableFavorites: false,
  enableComments: false,
  enableApprovals: false,
  enableAnalytics: true,
  enableNotifications: false,
  notificationEmail: '',
  slackWebhook: '',
} as const;

/** The switches a visitor's page acts on. Notification settings (address, webhook) are the owner's only. */

export const PUBLIC_SITE_SETTING_KEYS = ['enableFavorites', 'enableComments', 'enableApprovals', 'enableAnalytics'] as const;

/** A site's password, when one is set: long enough that guessing (rate limited as it is) gets nowhere. */
export const SITE_PASSWORD_LIMITS = { minLength: 8, maxLength: 200 } as const;
export const SITE_PASSWORD_MESSAGES = {
  tooShort: `Password must be at least ${SITE_PASSWORD_LIMITS.minLength} characters`,
  tooLong: `Password must be at most ${SITE_PASSWORD_LIMITS.maxLength} characters`,
} as const;
