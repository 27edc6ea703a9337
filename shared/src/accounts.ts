/**
 * Creator accounts: the payloads and replies of the sign-in, sign-up, email-link, verification,
 * reset and account calls (issue 11's contract), the texts both sides show, and the one rule for
 * where a finished flow may send the browser back to. The server parses requests with these; the
 * dashboard parses the replies with them.
 */
import { z } from 'zod';
import { ZIsoDateTimeSchema } from './engagement.ts';

/** Shortest password an account may have. */
export const PASSWORD_MIN_LENGTH = 8;
/** Longest password accepted: argon2 takes any length, a megabyte of one would only cost CPU. */
export const PASSWORD_MAX_LENGTH = 256;
export const CREATOR_NAME_MAX_LENGTH = 100;
export const EMAIL_MAX_LENGTH = 320;

/** The one answer to any failed sign-in, so no answer tells whether an address has an account. */
export const SIGN_IN_FAILED_MESSAGE = 'Incorrect email or password.';
export const SIGN_IN_RATE_LIMITED_MESSAGE = 'Too many sign-in attempts. Please try again later.';
export const ACCOUNT_EXISTS_MESSAGE = 'An account with this email already exists. Sign in instead.';
export const LINK_EXPIRED_MESSAGE = 'This sign-in link has expired or was already used. Ask for a new one.';
export const AUTHENTICATION_REQUIRED_MESSAGE = 'Authentication required. Please sign in and try again.';
export const DELETE_CONFIRMATION_MESSAGE = 'Type your email address to confirm.';

// ---- requests

const ZEmailSchema = z.string().trim().toLowerCase().max(EMAIL_MAX_LENGTH).pipe(z.email('Enter an email address like name@example.com.'));
const ZNewPasswordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters.`)
  .max(PASSWORD_MAX_LENGTH, `Use at most ${PASSWORD_MAX_LENGTH} characters.`);
/** A password being checked, not chosen: its length rule is not told here. */
const ZGivenPasswordSchema = z.string().min(1).max(PASSWORD_MAX_LENGTH);
const ZCreatorNameSchema = z.string().trim().min(1, 'Enter your name.').max(CREATOR_NAME_MAX_LENGTH);
const ZOneTimeTokenSchema = z.string().min(1).max(200);

export const ZSignUpRequestSchema = z.object({ email: ZEmailSchema, password: ZNewPasswordSchema, name: ZCreatorNameSchema });
export type TSignUpRequest = z.infer<typeof ZSignUpRequestSchema>;
export const ZSignInRequestSchema = z.object({ email: ZEmailSchema, password: ZGivenPasswordSchema });
export type TSignInRequest = z.infer<typeof ZSignInRequestSchema>;
export const ZEmailLinkRequestSchema = z.object({ email: ZEmailSchema, returnTo: z.string().max(2000).nullish() });
export type TEmailLinkRequest = z.infer<typeof ZEmailLinkRequestSchema>;
/** The email-link, verification and reset tokens travel the same way. */
export const ZOneTimeTokenRequestSchema = z.object({ token: ZOneTimeTokenSchema });
export const ZPasswordResetRequestSchema = z.object({ email: ZEmailSchema });
export const ZPasswordResetSchema = z.object({ token: ZOneTimeTokenSchema, password: ZNewPasswordSchema });
export const ZAccountUpdateRequestSchema = z.object({ name: ZCreatorNameSchema });
export const ZEmailChangeRequestSchema = z.object({ email: ZEmailSchema, password: ZGivenPasswordSchema });
export const ZPasswordChangeRequestSchema = z.object({ currentPassword: ZGivenPasswordSchema, newPassword: ZNewPasswordSchema });
export const ZDeleteAccountRequestSchema = z.object({ confirmEmail: z.string().max(EMAIL_MAX_LENGTH) });

// ---- replies

const success = { success: z.literal(true) };

/** What a creator may see of their own account. */
export const ZCreatorPublicSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  avatarUrl: z.string(),
  emailVerified: z.boolean(),
  createdAt: ZIsoDateTimeSchema,
});
export type TCreatorPublic = z.infer<typeof ZCreatorPublicSchema>;

/** GET /api/auth/session: never 401, the header asks it on every page. */
export const ZAuthSessionResponseSchema = z.object({ ...success, creator: ZCreatorPublicSchema.nullable() });
/** Sign-up, sign-in, verification, reset, PATCH /api/account, POST /api/creators/sync. */
export const ZCreatorResponseSchema = z.object({ ...success, creator: ZCreatorPublicSchema });
export const ZEmailLinkConsumeResponseSchema = z.object({
  ...success,
  creator: ZCreatorPublicSchema,
  returnTo: z.string().nullish(),
  /** Sites of the anonymous session the link was sent from, now the creator's. */
  claimed: z.number().int().nonnegative(),
});

export const ZAccountSessionSchema = z.object({
  id: z.string(),
  createdAt: ZIsoDateTimeSchema,
  lastUsedAt: ZIsoDateTimeSchema.nullish(),
  expiresAt: ZIsoDateTimeSchema,
  current: z.boolean(),
  userAgent: z.string().nullish(),
});
export type TAccountSession = z.infer<typeof ZAccountSessionSchema>;
export const ZAccountResponseSchema = z.object({
  ...success,
  creator: ZCreatorPublicSchema,
  sessions: z.array(ZAccountSessionSchema),
  /** An address change waiting for its confirmation link, when there is one. */
  pendingEmail: z.string().nullish(),
});
export type TAccountResponse = z.infer<typeof ZAccountResponseSchema>;

// ---- where a flow returns to

/** Pages a finished sign-in must not return to: they would start the flow again. */
const NO_RETURN_PATHS = ['/sign-in', '/reset-password', '/verify-email'];

/**
 * The path a finished sign-in may send the browser back to, or null. Only a path of our own
 * origin: `//host`, `/\host`, schemes and control characters are refused, so a link in a mail
 * or a crafted `?returnTo=` cannot send a creator who just signed in to another site.
 */
export function toSafeReturnPath(value: string | null | undefined): string | null {
  if (!value || value.length > 2000 || !value.startsWith('/') || value.startsWith('//')) return null;
  if (/[\\\u0000-\u001f\u007f]/.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, 'http://origin.invalid');
  } catch {
    return null;
  }
  if (url.origin !== 'http://origin.invalid') return null;
  const pathname = url.pathname.replace(/\/+$/, '') || '/';
  if (NO_RETURN_PATHS.includes(pathname)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
