/**
 * Creator accounts: the replies of the sign-in, sign-up, email-link, verification, reset and
 * account calls (issue 11's contract) as the dashboard reads them, and the one rule for where a
 * finished flow may send the browser back to.
 */
import { z } from 'zod';
import { ZIsoDateTimeSchema } from './engagement.ts';

/** Shortest password an account may have. */
export const PASSWORD_MIN_LENGTH = 8;

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
