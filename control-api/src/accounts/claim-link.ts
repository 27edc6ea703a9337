/**
 * The email prompt's sign-in link that claims an anonymous session's sites goes only to an address
 * that session confirmed. An address given in the prompt before it was confirmed gets the
 * confirmation message first; once it is confirmed (POST /api/email/confirm), the claim link the
 * prompt asked for is mailed here, unless the session's sites were claimed meanwhile.
 */
import { APP_PATHS } from '@dropsite/shared';
import { findAnonymousSession, listEmailCollectionAddresses } from '../creators/anonymous-sessions.repository.ts';
import { normalizeEmail } from '../notifications/email-confirmation.service.ts';
import { requestEmailLink } from './accounts.service.ts';

const ANONYMOUS_OWNER = /^anon:(.+)$/;

/** After `address` was confirmed: mails the claim link its session's email prompt asked for. Answers whether one was sent. */
export async function mailClaimLinkOnceConfirmed(deps: Parameters<typeof requestEmailLink>[0], address: { email: string; owner_key: string }): Promise<boolean> {
  const sessionId = ANONYMOUS_OWNER.exec(address.owner_key)?.[1];
  if (!sessionId) return false;
  const session = await findAnonymousSession(deps.db, sessionId);
  if (!session || session.claimed_by !== null || session.expires_at <= deps.clock.now()) return false;
  const email = normalizeEmail(address.email);
  const asked = (await listEmailCollectionAddresses(deps.db, sessionId)).some((collected) => normalizeEmail(collected) === email);
  if (!asked) return false;
  await requestEmailLink(deps, { email, returnTo: APP_PATHS.dashboard, anonymousSessionId: sessionId });
  return true;
}
