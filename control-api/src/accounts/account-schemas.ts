/** The request bodies of the account calls (zod at the boundary; addresses are trimmed and lower-cased). */
import { isValidEmailAddress, toSafeReturnPath } from '@dropsite/shared';
import { z } from 'zod';

const ZEmail = z
  .string()
  .trim()
  .toLowerCase()
  .max(320)
  .refine((v) => isValidEmailAddress(v), 'Enter a valid email address.');
/** argon2 hashes the whole text; beyond this it is a denial-of-service vector, not a password. */
const ZNewPassword = z.string().min(8, 'Use at least 8 characters for your password.').max(256, 'Use at most 256 characters for your password.');
const ZPassword = z.string().min(1).max(256);
const ZName = z.string().trim().min(1, 'Enter your name.').max(100);
const ZToken = z.string().min(1).max(200);
/** Where to go back to after signing in: a path of this origin, else nowhere in particular (the shared rule). */
const ZReturnTo = z
  .string()
  .max(2000)
  .transform((v) => toSafeReturnPath(v));

export const ZSignUpSchema = z.object({ email: ZEmail, password: ZNewPassword, name: ZName, returnTo: ZReturnTo.optional() });
export const ZSignInSchema = z.object({ email: z.string().trim().toLowerCase().max(320), password: ZPassword });
export const ZEmailLinkSchema = z.object({ email: ZEmail, returnTo: ZReturnTo.optional() });
export const ZTokenSchema = z.object({ token: ZToken });
export const ZPasswordResetRequestSchema = z.object({ email: ZEmail });
export const ZPasswordResetSchema = z.object({ token: ZToken, password: ZNewPassword });
export const ZAccountPatchSchema = z.object({ name: ZName });
export const ZEmailChangeSchema = z.object({ email: ZEmail, password: z.string().max(256).default('') });
export const ZPasswordChangeSchema = z.object({ currentPassword: z.string().max(256).default(''), newPassword: ZNewPassword });
export const ZDeleteAccountSchema = z.object({ confirmEmail: z.string().max(320).default(''), password: z.string().max(256).default('') });
export const ZClaimSchema = z.object({ anonymousSessionId: z.string().max(100).optional() });
