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
