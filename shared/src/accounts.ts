/**
 * Creator accounts: the replies of the sign-in, sign-up, email-link, verification, reset and
 * account calls (issue 11's contract) as the dashboard reads them, and the one rule for where a
 * finished flow may send the browser back to.
 */
import { z } from 'zod';
import { ZIsoDateTimeSchema } from './engagement.ts';

export * from './account-rules.ts';

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
  /** GET /api/auth/session only: an emailed sign-in link opened this session, so it claims no site this browser made. */
  signedInByLink: z.boolean().optional(),
});
export type TCreatorPublic = z.infer<typeof ZCreatorPublicSchema>;

/** GET /api/auth/session: never 401, the header asks it on every page. */
export const ZAuthSessionResponseSchema = z.object({ ...success, creator: ZCreatorPublicSchema.nullable() });
/** Sign-in, verification, reset, PATCH /api/account, POST /api/creators/sync. */
export const ZCreatorResponseSchema = z.object({ ...success, creator: ZCreatorPublicSchema });
export const ZEmailLinkConsumeResponseSchema = z.object({
  ...success,
  creator: ZCreatorPublicSchema,
  returnTo: z.string().nullish(),
  /** Sites of the anonymous session the link was sent from, now the creator's. */
  claimed: z.number().int().nonnegative(),
});

/** POST /api/auth/email-link/describe: what a sign-in link's page names before the link is used. */
export const ZEmailLinkDescribeResponseSchema = z.object({
  ...success,
  /** The account's address (the account is made with the link's first use when there is none yet). */
  email: z.string(),
  /** The link also adds the sites of the browser it was asked from to that account. */
  addsSites: z.boolean(),
});
export type TEmailLinkDescribeResponse = z.infer<typeof ZEmailLinkDescribeResponseSchema>;

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
  /** Whether the account has a password; without one, its sensitive changes need a fresh sign-in link. */
  hasPassword: z.boolean(),
});
export type TAccountResponse = z.infer<typeof ZAccountResponseSchema>;
