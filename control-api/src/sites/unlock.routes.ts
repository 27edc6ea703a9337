/** POST /api/sites/{slug}/unlock: the password page's form (or JSON). */
import express, { type Response } from 'express';
import { ZUnlockRequestSchema } from '@dropsite/shared';
import type { TSitesDeps } from './sites.deps.ts';
import { AppError } from '../http/app-error.ts';
import { setCookie } from '../access/cookies.ts';
import { principalOf, unlockCookieBase } from '../access/principal.ts';
import { rateLimitedError } from '../access/rate-limiter.ts';
import { ensureVisitorId } from '../access/visitor-id.ts';
import { expiredPage, notFoundPage } from './status-pages.ts';
import { passwordGatePage } from './password-gate.ts';
import { findSiteBySlug } from '../site-records/site-records.repository.ts';
import type { TSiteRow } from '../db/tables.ts';
import { unlockSite } from './site-password.service.ts';
import { BUSY_RETRY_AFTER_SECONDS, PasswordChecksBusyError } from './password-hash.ts';
import { createApiRouters, type TApiRouters } from '../http/api-routers.ts';

export const WRONG_PASSWORD_MESSAGE = 'Incorrect password. Please try again.';
const TOO_MANY_MESSAGE = 'Too many attempts. Please wait a little and try again.';

function sendHtml(res: Response, status: number, html: string): void {
  res.status(status).set({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'private, no-store' }).send(html);
}

export function createUnlockRoutes(deps: TSitesDeps): TApiRouters {
  const routes = createApiRouters();
  const limits = deps.limits.requests;
  /** (site, address) pairs whose guess is being checked right now. */
  const guessesInFlight = new Set<string>();
  // Only this route reads forms; the password page posts one field.
  const parseForm = express.urlencoded({ extended: false, limit: '4kb', parameterLimit: 10 });

  routes.at('/api/sites').post('/:slug/unlock', parseForm, async (req, res) => {
    res.set('Cache-Control', 'private, no-store');
    const slug = req.params.slug.slice(0, 80);
    const isForm = req.is('application/x-www-form-urlencoded') === 'application/x-www-form-urlencoded';
    // The gate shown again after a refused form post: the site's, when it is a live locked one.
    const gate = async (message: string, site?: TSiteRow) => passwordGatePage(deps, slug, site ?? (await findSiteBySlug(deps.db, slug)), message);
    const refuse = async (status: number, code: 'password_required' | 'validation_failed' | 'not_found' | 'gone', message: string, site?: TSiteRow) => {
      if (!isForm) throw new AppError(code, message);
      if (code === 'not_found') return sendHtml(res, 404, notFoundPage());
      if (code === 'gone') return sendHtml(res, 410, expiredPage());
      return sendHtml(res, status, await gate(message, site));
    };

    // Only failed guesses count. An address that spent its failures, or that must still wait on this
    // site, is refused before any password hash; everyone else's guess is checked, so a few
    // addresses guessing wrong never lock out a visitor who knows the password.
    const address = principalOf(res).address;
    const pairKey = `${slug}\n${address}`;
    const tooMany = async (retryAfterSeconds: number) => {
      const error = rateLimitedError({ allowed: false, retryAfterSeconds: Math.max(1, retryAfterSeconds) }, TOO_MANY_MESSAGE);
      if (!isForm) throw error;
      res.set(error.headers);
      return sendHtml(res, 429, await gate(TOO_MANY_MESSAGE));
    };
    const backoff = await limits.unlockBackoff.waitSeconds(pairKey);
    if (backoff > 0) {
      const perAddress = await limits.unlock.peek(address);
      return tooMany(Math.max(backoff, perAddress.allowed ? 0 : perAddress.retryAfterSeconds));
    }
    // One guess per (site, address) is checked at a time, so parallel requests cannot outrun the back-off:
    // held from here until its failure is recorded.
    if (guessesInFlight.has(pairKey)) return tooMany(1);
    guessesInFlight.add(pairKey);
    let outcome: Awaited<ReturnType<typeof unlockSite>>;
    try {
      // Taken before the check (parallel guesses cannot all pass a peek) and given back unless it failed.
      const perAddress = await limits.unlock.take(address);
      if (!perAddress.allowed) return tooMany(perAddress.retryAfterSeconds);

      // The password is read from the body only; a ?password= in the URL is never looked at.
      const parsed = ZUnlockRequestSchema.safeParse(req.body ?? {});
      if (!parsed.success) {
        await limits.unlock.refund(address);
        return refuse(400, 'validation_failed', 'Please enter the password');
      }
      try {
        outcome = await unlockSite(deps, () => ensureVisitorId(deps, res), slug, parsed.data.password, { client: address });
      } catch (err) {
        // This address already has its share of the password checks running: nothing was checked.
        if (!(err instanceof PasswordChecksBusyError)) throw err;
        await limits.unlock.refund(address);
        return tooMany(BUSY_RETRY_AFTER_SECONDS);
      }
      // A miss on an unknown site still cost a hash, so it counts against the address.
      if (outcome.kind !== 'wrong' && outcome.kind !== 'missing') await limits.unlock.refund(address);
      if (outcome.kind === 'unlocked') {
        await limits.unlockBackoff.succeed(pairKey);
        setCookie(res, deps.config, unlockCookieBase(outcome.site.id), outcome.unlock.value, outcome.unlock.maxAgeMs);
      }
      if (outcome.kind === 'wrong') {
        // Failures on the site from everyone together: past them the site is under attack, so each
        // address backs off from its first failure and wrong guesses are told to wait.
        const site = await limits.unlockSite.take(slug);
        const wait = await limits.unlockBackoff.fail(pairKey, { strict: !site.allowed });
        if (!site.allowed) return tooMany(Math.max(wait, site.retryAfterSeconds));
      }
    } finally {
      guessesInFlight.delete(pairKey);
    }
    switch (outcome.kind) {
      case 'missing':
        return refuse(404, 'not_found', 'Site not found');
      case 'expired':
        return refuse(410, 'gone', 'This site has expired');
      case 'wrong':
        return refuse(401, 'password_required', WRONG_PASSWORD_MESSAGE, outcome.site);
      case 'open':
      case 'unlocked': {
        const redirectTo = `/${outcome.site.slug}`;
        if (isForm) return res.redirect(303, redirectTo);
        return res.json({ success: true, redirectTo });
      }
    }
  });

  return routes.routers;
}
