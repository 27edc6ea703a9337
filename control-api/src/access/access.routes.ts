/** POST /api/sites/{slug}/unlock: the password page's form (or JSON). */
import express, { Router, type Response } from 'express';
import { ZUnlockRequestSchema } from '@dropsite/shared';
import type { TAppDeps } from '../deps.ts';
import { AppError } from '../http/app-error.ts';
import { expiredPage, notFoundPage, passwordPage } from '../sites/status-pages.ts';
import { clientAddress, requestLimitsFor } from './request-limits.ts';
import { rateLimitedError } from './rate-limiter.ts';
import { unlockSite } from './access.service.ts';

export const WRONG_PASSWORD_MESSAGE = 'Incorrect password. Please try again.';
const TOO_MANY_MESSAGE = 'Too many attempts. Please wait a little and try again.';

function sendHtml(res: Response, status: number, html: string): void {
  res.status(status).set({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'private, no-store' }).send(html);
}

export function createAccessRoutes(deps: TAppDeps): Router {
  const router = Router();
  const limits = requestLimitsFor(deps);
  // Only this route reads forms; the password page posts one field.
  const parseForm = express.urlencoded({ extended: false, limit: '4kb', parameterLimit: 10 });

  router.post('/api/sites/:slug/unlock', parseForm, async (req, res) => {
    res.set('Cache-Control', 'private, no-store');
    const slug = req.params.slug.slice(0, 80);
    const isForm = req.is('application/x-www-form-urlencoded') === 'application/x-www-form-urlencoded';
    const theme = 'professional';
    const refuse = (status: number, code: 'password_required' | 'validation_failed' | 'not_found' | 'gone', message: string, pageTheme = theme) => {
      if (!isForm) throw new AppError(code, message);
      if (code === 'not_found') return sendHtml(res, 404, notFoundPage());
      if (code === 'gone') return sendHtml(res, 410, expiredPage());
      return sendHtml(res, status, passwordPage({ slug, theme: pageTheme, error: message }));
    };

    // Limits first: a refused guess costs no password hash. Per address, then per site for guesses spread over many addresses.
    for (const [limiter, key] of [
      [limits.unlock, clientAddress(req)],
      [limits.unlockSite, slug],
    ] as const) {
      const decision = limiter.take(key);
      if (!decision.allowed) {
        const error = rateLimitedError(decision, TOO_MANY_MESSAGE);
        if (!isForm) throw error;
        res.set(error.headers);
        return sendHtml(res, 429, passwordPage({ slug, theme, error: TOO_MANY_MESSAGE }));
      }
    }

    // The password is read from the body only; a ?password= in the URL is never looked at.
    const parsed = ZUnlockRequestSchema.safeParse(req.body ?? {});
    if (!parsed.success) return refuse(400, 'validation_failed', 'Please enter the password');
    const outcome = await unlockSite(deps, req, res, slug, parsed.data.password);
    switch (outcome.kind) {
      case 'missing':
        return refuse(404, 'not_found', 'Site not found');
      case 'expired':
        return refuse(410, 'gone', 'This site has expired');
      case 'wrong':
        return refuse(401, 'password_required', WRONG_PASSWORD_MESSAGE, outcome.project.theme);
      case 'open':
      case 'unlocked': {
        const redirectTo = `/${outcome.project.slug}`;
        if (isForm) return res.redirect(303, redirectTo);
        return res.json({ success: true, redirectTo });
      }
    }
  });

  return router;
}
