/**
 * The account calls (sign-up, sign-in and out, emailed links, the account page), the signed-in
 * creator's sync and claim, and the email-collection modal's submit (which mails a sign-in link that
 * claims the anonymous session's sites once the session confirmed the address). Every answer is
 * private and never cached.
 */
import type { Request, RequestHandler, Response } from 'express';
import { APP_PATHS, ZEmailCollectionRequestSchema, type TEmailCollectionResponse, type TEmailLinkDescribeResponse } from '@dropsite/shared';
import type { TAccountsDeps } from './accounts.deps.ts';
import { ANONYMOUS_CREATOR_COOKIE, setCookie } from '../access/cookies.ts';
import { principalOf, updatePrincipal } from '../access/principal.ts';
import { limitByAddress } from '../access/request-limits.ts';
import { collectEmail } from '../creators/anonymous.service.ts';
import { findEmailAddress } from '../notifications/email-addresses.repository.ts';
import { anonymousOwnerKey, normalizeEmail } from '../notifications/email-confirmation.service.ts';
import {
  ZAccountPatchSchema,
  ZClaimSchema,
  ZDeleteAccountSchema,
  ZEmailChangeSchema,
  ZEmailLinkSchema,
  ZPasswordChangeSchema,
  ZPasswordResetRequestSchema,
  ZPasswordResetSchema,
  ZSignInSchema,
  ZSignUpSchema,
  ZTokenSchema,
} from './account-schemas.ts';
import {
  cancelEmailChange,
  changePassword,
  claimSites,
  consumeEmailLink,
  describeEmailLink,
  currentCreator,
  deleteAccount,
  describeAccount,
  endSession,
  renameAccount,
  requestEmailChange,
  requestEmailLink,
  requestPasswordReset,
  requestVerification,
  resetPassword,
  signIn,
  signOut,
  signOutEverywhere,
  signUp,
  syncCreator,
  type TSignedIn,
  undoEmailChange,
  verifyEmail,
} from './accounts.service.ts';
import { clearSessionCookie, setSessionCookie } from './sessions.ts';
import { createApiRouters, type TApiRouters } from '../http/api-routers.ts';

const PRIVATE = 'private, no-store';

function userAgentOf(req: Request): string | null {
  return req.get('user-agent') ?? null;
}

export function createAccountRoutes(deps: TAccountsDeps): TApiRouters {
  const routes = createApiRouters();
  const limitReads = limitByAddress(deps.limits.requests.reads);
  const limitWrites = limitByAddress(deps.limits.requests.writes);

  const noStore: RequestHandler = (_req, res, next) => {
    res.set('Cache-Control', PRIVATE);
    next();
  };
  routes.at('/api/auth').use(noStore);
  routes.at('/api/account').use(noStore);
  routes.at('/api/creators').use(['/sync', '/claim'], noStore);

  /** Sets the new session's cookie and makes it the request's creator (the anonymous cookie is left alone: it is never a session). */
  function signedIn(res: Response, result: TSignedIn): void {
    setSessionCookie(deps, res, result.session);
    const creator = { ...result.creator, sessionId: result.session.id, linkSignedInAt: result.session.linkSignedInAt };
    updatePrincipal(res, { signedInCreator: () => Promise.resolve(creator) });
  }

  // Answered alike whether or not the address has an account: the mailed link finishes the sign-up.
  routes.at('/api/auth').post('/sign-up', limitWrites, async (req, res) => {
    const input = ZSignUpSchema.parse(req.body ?? {});
    const principal = principalOf(res);
    const session = await principal.anonymousSession();
    await signUp(deps, input, { client: principal.address, anonymousSessionId: session?.id ?? null });
    res.status(202).json({ success: true });
  });

  routes.at('/api/auth').post('/sign-in', limitWrites, async (req, res) => {
    const result = await signIn(deps, principalOf(res), ZSignInSchema.parse(req.body ?? {}), userAgentOf(req));
    signedIn(res, result);
    res.json({ success: true, creator: result.creator });
  });

  routes.at('/api/auth').post('/sign-out', async (_req, res) => {
    await signOut(deps, principalOf(res));
    clearSessionCookie(deps, res);
    res.json({ success: true });
  });

  routes.at('/api/auth').post('/sign-out-everywhere', async (_req, res) => {
    await signOutEverywhere(deps, principalOf(res));
    clearSessionCookie(deps, res);
    res.json({ success: true });
  });

  routes.at('/api/auth').get('/session', limitReads, async (_req, res) => {
    res.json({ success: true, creator: await currentCreator(deps, principalOf(res)) });
  });

  routes.at('/api/auth').post('/email-link', limitWrites, async (req, res) => {
    await requestEmailLink(deps, ZEmailLinkSchema.parse(req.body ?? {}));
    res.status(202).json({ success: true });
  });

  // The sign-in link's page names the account before the creator presses the button (nothing is used here).
  routes.at('/api/auth').post('/email-link/describe', limitReads, async (req, res) => {
    const { token } = ZTokenSchema.parse(req.body ?? {});
    res.json({ success: true, ...(await describeEmailLink(deps, token)) } satisfies TEmailLinkDescribeResponse);
  });

  routes.at('/api/auth').post('/email-link/consume', limitWrites, async (req, res) => {
    const { token } = ZTokenSchema.parse(req.body ?? {});
    const result = await consumeEmailLink(deps, token, userAgentOf(req));
    signedIn(res, result);
    // The claimed session's cookie has done its work.
    if (result.claimed > 0) setCookie(res, deps.config, ANONYMOUS_CREATOR_COOKIE, '', 0);
    res.json({ success: true, creator: result.creator, returnTo: result.returnTo, claimed: result.claimed });
  });

  routes.at('/api/auth').post('/verify-email/request', limitWrites, async (_req, res) => {
    await requestVerification(deps, principalOf(res));
    res.status(202).json({ success: true });
  });

  routes.at('/api/auth').post('/verify-email', limitWrites, async (req, res) => {
    const { token } = ZTokenSchema.parse(req.body ?? {});
    res.json({ success: true, creator: await verifyEmail(deps, token) });
  });

  // The link mailed to the previous address of an address change: the address comes back, every
  // session ends, and the one who opened it is signed in here.
  routes.at('/api/auth').post('/email-change/undo', limitWrites, async (req, res) => {
    const { token } = ZTokenSchema.parse(req.body ?? {});
    const result = await undoEmailChange(deps, token, userAgentOf(req));
    signedIn(res, result);
    res.json({ success: true, creator: result.creator });
  });

  routes.at('/api/auth').post('/password-reset/request', limitWrites, async (req, res) => {
    await requestPasswordReset(deps, ZPasswordResetRequestSchema.parse(req.body ?? {}).email);
    res.status(202).json({ success: true });
  });

  routes.at('/api/auth').post('/password-reset', limitWrites, async (req, res) => {
    const result = await resetPassword(deps, ZPasswordResetSchema.parse(req.body ?? {}), userAgentOf(req));
    signedIn(res, result);
    res.json({ success: true, creator: result.creator });
  });

  routes.at('/api/account').get('/', limitReads, async (_req, res) => {
    res.json({ success: true, ...(await describeAccount(deps, principalOf(res))) });
  });

  routes.at('/api/account').patch('/', limitWrites, async (req, res) => {
    res.json({ success: true, creator: await renameAccount(deps, principalOf(res), ZAccountPatchSchema.parse(req.body ?? {})) });
  });

  routes.at('/api/account').post('/email', limitWrites, async (req, res) => {
    await requestEmailChange(deps, principalOf(res), ZEmailChangeSchema.parse(req.body ?? {}));
    res.status(202).json({ success: true });
  });

  routes.at('/api/account').delete('/email', limitWrites, async (_req, res) => {
    await cancelEmailChange(deps, principalOf(res));
    res.json({ success: true });
  });

  routes.at('/api/account').post('/password', limitWrites, async (req, res) => {
    await changePassword(deps, principalOf(res), ZPasswordChangeSchema.parse(req.body ?? {}));
    res.json({ success: true });
  });

  routes.at('/api/account').delete('/sessions/:id', limitWrites, async (req, res) => {
    const { wasCurrent } = await endSession(deps, principalOf(res), String(req.params.id));
    if (wasCurrent) clearSessionCookie(deps, res);
    res.json({ success: true });
  });

  routes.at('/api/account').delete('/', limitWrites, async (req, res) => {
    await deleteAccount(deps, principalOf(res), ZDeleteAccountSchema.parse(req.body ?? {}));
    clearSessionCookie(deps, res);
    res.json({ success: true });
  });

  routes.at('/api/creators').post('/sync', limitWrites, async (_req, res) => {
    res.json({ success: true, creator: await syncCreator(deps, principalOf(res)) });
  });

  routes.at('/api/creators').post('/claim', limitWrites, async (req, res) => {
    const { anonymousSessionId } = ZClaimSchema.parse(req.body ?? {});
    const result = await claimSites(deps, principalOf(res), anonymousSessionId);
    if (result.hadSession) setCookie(res, deps.config, ANONYMOUS_CREATOR_COOKIE, '', 0);
    res.json({ success: true, claimed: result.claimed, projects: result.sites });
  });

  // The email-collection modal promises 'pick up your sites on any device'. Only an address this
  // browser's anonymous session confirmed gets a sign-in link that claims its sites: anyone can type
  // any address here, and a claim link to an address that did not ask would put a stranger's sites in
  // its account. An address not confirmed yet gets the confirmation message (collectEmail asks for
  // it); confirming it mails the claim link (email.routes.ts). Without sites, a plain sign-in link.
  routes.at('/api/email-collection').post('/', limitWrites, async (req, res) => {
    const input = ZEmailCollectionRequestSchema.parse(req.body ?? {});
    const principal = principalOf(res);
    await collectEmail(deps, principal, input);
    const session = await principal.anonymousSession();
    const signedInAlready = await principal.signedInCreator();
    let sent: TEmailCollectionResponse['sent'] = 'none';
    if (!signedInAlready) {
      const email = normalizeEmail(input.email);
      if (!session) {
        await requestEmailLink(deps, { email, returnTo: APP_PATHS.dashboard, anonymousSessionId: null });
        sent = 'sign_in_link';
      } else {
        // collectEmail asked for a confirmation already: pending until its link is used; an address that
        // unsubscribed gets nothing more from here.
        const status = (await findEmailAddress(deps.db, email, anonymousOwnerKey(session.id)))?.status;
        if (status === 'confirmed') {
          await requestEmailLink(deps, { email, returnTo: APP_PATHS.dashboard, anonymousSessionId: session.id });
          sent = 'sign_in_link';
        } else if (status === 'pending') {
          sent = 'confirmation';
        }
      }
    }
    res.status(201).json({ success: true, sent } satisfies TEmailCollectionResponse);
  });

  return routes.routers;
}
