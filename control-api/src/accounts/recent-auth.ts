/**
 * The one rule for the account's most sensitive changes (a new address, a first password, deleting
 * the account): whoever asks proves again that they are the owner, not merely someone holding a
 * session. An account with a password types it (wrong guesses count as failed sign-ins of the
 * account, so a session cannot be used to guess it); an account without one asks from a session
 * that a sign-in link mailed to its current address opened within the last 10 minutes.
 */
import type { TAccountsDeps } from './accounts.deps.ts';
import type { TSignedInCreator } from '../access/principal.ts';
import { rateLimitedError } from '../access/rate-limiter.ts';
import { AppError } from '../http/app-error.ts';
import { verifyPassword } from '../sites/password-hash.ts';
import type { TCreatorRow } from './accounts.repository.ts';

/** How long after a sign-in link opened a session it counts as a fresh proof. */
export const RECENT_LINK_SIGN_IN_MS = 10 * 60_000;
export const WRONG_CURRENT_PASSWORD = 'Your current password is not correct.';
export const RECENT_SIGN_IN_NEEDED = 'For your safety, confirm it’s you first: open a new sign-in link sent to your current address, then try again within 10 minutes.';
const TOO_MANY_GUESSES = 'Too many wrong passwords. Please try again later.';

/** Passes when the request proves the owner (the current password, or a fresh sign-in link); throws otherwise. */
export async function requireRecentAuthentication(
  deps: Pick<TAccountsDeps, 'db' | 'clock' | 'limits'>,
  signedIn: TSignedInCreator,
  row: TCreatorRow,
  password: string,
): Promise<void> {
  if (row.password_hash !== null) {
    // Taken before the check and given back when it passes, so parallel guesses cannot exceed it.
    const failures = deps.limits.accounts.signInFailuresByAccount;
    const decision = await failures.take(row.email);
    if (!decision.allowed) throw rateLimitedError(decision, TOO_MANY_GUESSES);
    if (!(await verifyPassword(password, row.password_hash))) throw new AppError('bad_request', WRONG_CURRENT_PASSWORD);
    await failures.refund(row.email);
    return;
  }
  const { linkSignedInAt } = signedIn;
  if (linkSignedInAt !== null && deps.clock.now() - linkSignedInAt <= RECENT_LINK_SIGN_IN_MS) return;
  throw new AppError('forbidden', RECENT_SIGN_IN_NEEDED);
}
