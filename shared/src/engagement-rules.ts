/**
 * Engagement constants and the pure rules both sides share (spec 'visitor-site-and-publishing' 4, 5, 9):
 * no zod here, so a page that needs a rule or a limit does not load the schemas of ./engagement.ts.
 */
import { ANONYMOUS_WARNING_HOURS, ANONYMOUS_WINDOW_DAYS } from './constants.ts';

// ---- constants (spec 9 and companion 9)

/** Longest comment, in characters (Unicode code points). Longer ones are refused with 413. */
export const COMMENT_MAX_CHARS = 5000;
/** The answer when a site's creator has not turned a feature on. */
export const FEATURE_DISABLED_MESSAGE = 'This feature is not enabled for this site';
/** Companion spec: 'the 10 most recent activities'. */
export const RECENT_ACTIVITY_LIMIT = 10;
/** Local notifications kept by the bell, newest first. */
export const NOTIFICATIONS_KEPT = 10;
export const NOTIFICATION_BELL_REFRESH_MS = 30_000;
export const ENGAGEMENT_UPDATES_POLL_MS = 60_000;
/** Browser notifications close after this unless their urgency is high. */
export const BROWSER_NOTIFICATION_CLOSE_MS = 10_000;
/** An expiration warning is dropped 24 hours after it was raised. */
export const EXPIRATION_WARNING_TTL_MS = ANONYMOUS_WARNING_HOURS * 3_600_000;
export const HIGH_VIEWS_THRESHOLD = 10;
export const RETURN_VISIT_THRESHOLD_MS = 24 * 3_600_000;
export const RETURN_VISIT_PROMPT_DELAY_MS = 3000;
export const ANONYMOUS_WINDOW_MS = ANONYMOUS_WINDOW_DAYS * 86_400_000;

export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type TApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/** Companion spec: activity types of the analytics panel. */
export const ACTIVITY_TYPES = ['view', 'download', 'favorite', 'comment', 'approval'] as const;
export type TActivityType = (typeof ACTIVITY_TYPES)[number];

export const EMAIL_TRIGGERS = ['first_engagement', 'high_views', 'return_visit', 'success_page'] as const;
export type TEmailTrigger = (typeof EMAIL_TRIGGERS)[number];

/** Spec 9: the analytics event names of the email-collection modal. */
export const PRODUCT_EVENT_NAMES = ['email_collection_skipped', 'email_collected', 'email_modal_dismissed'] as const;
export type TProductEventName = (typeof PRODUCT_EVENT_NAMES)[number];

export const NOTIFICATION_TYPES = ['comment', 'favorite', 'approval', 'expiration_warning'] as const;
export type TNotificationType = (typeof NOTIFICATION_TYPES)[number];

export const URGENCY_LEVELS = ['high', 'medium', 'low'] as const;
export type TUrgencyLevel = (typeof URGENCY_LEVELS)[number];

// ---- pure rules

/** Spec 5: text, '@', text, '.', text, with no spaces anywhere. */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** Whether an address passes the email modal's rule (spec 5), at most 320 characters. */
export function isValidEmailAddress(text: string): boolean {
  return text.length <= 320 && EMAIL_SHAPE.test(text);
}

/** Longest name a visitor may give, in characters (code points), after trimming. */
export const VISITOR_NAME_MAX_CHARS = 60;

/** Control characters and the invisible direction overrides that could disguise a name (or break an email header or a CSV row). */
const UNSAFE_IN_NAME = /[\p{Cc}\u200E\u200F\u202A-\u202E\u2066-\u2069\u2028\u2029]/u;

export type TVisitorNameProblem = 'blank' | 'too_long' | 'invalid';

/** Why a visitor's name (already trimmed) cannot be stored, or null when it can. */
export function findVisitorNameProblem(name: string): TVisitorNameProblem | null {
  if (name === '') return 'blank';
  if (UNSAFE_IN_NAME.test(name) || LONE_SURROGATE.test(name)) return 'invalid';
  return [...name].length > VISITOR_NAME_MAX_CHARS ? 'too_long' : null;
}

/** Whether an address a visitor gives (already trimmed) may be stored: the email rule, and no control characters. */
export function isValidVisitorEmail(email: string): boolean {
  return isValidEmailAddress(email) && !UNSAFE_IN_NAME.test(email) && !LONE_SURROGATE.test(email);
}

/** A visitor's display name: 'User' and the last 4 characters of their id (spec 3), e.g. 'User 9fQk'. */
export function visitorDisplayName(visitorId: string): string {
  const tail = visitorId.slice(-4);
  return tail ? `User ${tail}` : 'User';
}

/** Teaser urgency by days remaining (spec 4): 1 or less high, 3 or less medium, else low. */
export function urgencyForDaysRemaining(daysRemaining: number): TUrgencyLevel {
  if (daysRemaining <= 1) return 'high';
  if (daysRemaining <= 3) return 'medium';
  return 'low';
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export type TCommentTextProblem = 'blank' | 'too_long' | 'invalid';

/**
 * Why a comment cannot be sent, or null when it can: blank after trimming, more than
 * COMMENT_MAX_CHARS characters, or containing NUL or unpaired surrogates.
 */
export function findCommentTextProblem(text: string): TCommentTextProblem | null {
  if (text.trim() === '') return 'blank';
  if (text.includes('\u0000') || LONE_SURROGATE.test(text)) return 'invalid';
  // Code points, so an emoji counts as one character as the person typing sees it (near enough).
  let count = 0;
  for (const _ of text) {
    if (++count > COMMENT_MAX_CHARS) return 'too_long';
  }
  return null;
}
