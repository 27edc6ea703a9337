/**
 * The links in our email: GET /api/email/confirm and /api/email/unsubscribe show a page with a
 * button (link scanners and previews fetch links; only the recipient's click, a POST, changes
 * anything); POST /api/email/unsubscribe is also the RFC 8058 one-click a mail client sends.
 * The token in the URL is the authority (a random confirmation token, or the row id signed with
 * a server key), so these POSTs need no Origin: they are mounted before the origin check.
 */
import { Router, type Response } from 'express';
import { z } from 'zod';
import type { TAppDeps } from '../deps.ts';
import { limitByAddress } from '../engagement/engagement.routes.ts';
import { parseSiteSettings } from '../projects/projects.repository.ts';
import { toOneLine } from './notification-messages.ts';
import { findEmailAddressById, findEmailAddressByTokenHash, listSitesOfOwner, setEmailAddressStatus, type TEmailAddressRow } from './email-addresses.repository.ts';
import { hashToken, isValidUnsubscribeToken, notificationAddressOf } from './email-confirmation.service.ts';
import {
  confirmedPage,
  confirmPromptPage,
  expiredConfirmLinkPage,
  invalidConfirmLinkPage,
  invalidUnsubscribeLinkPage,
  unsubscribedPage,
  unsubscribePromptPage,
} from './email-pages.ts';

const ZConfirmQuerySchema = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/) });
const ZUnsubscribeQuerySchema = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{22}$/), token: z.string().regex(/^[A-Za-z0-9_-]{43}$/) });

function sendPage(res: Response, status: number, html: string): void {
  res
    .status(status)
    .set({
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    })
    .send(html);
}

export function createEmailRoutes(deps: TAppDeps): Router {
  const router = Router();
  const limits = deps.limits.requests;
  const limitReads = limitByAddress(limits.reads);
  const limitWrites = limitByAddress(limits.writes);

  /** The titles of the owner's sites that send notifications to this address, one short line each. */
  const titlesFor = async (row: TEmailAddressRow): Promise<string[]> =>
    (await listSitesOfOwner(deps.db, row.owner_key))
      .filter((p) => notificationAddressOf(parseSiteSettings(p.settings)) === row.email)
      .slice(0, 10)
      .map((p) => toOneLine(p.title, 80));

  /** The row a live confirmation token names, or the page to show instead. */
  const confirmTarget = async (query: unknown): Promise<{ row: TEmailAddressRow; token: string } | { status: number; html: string }> => {
    const parsed = ZConfirmQuerySchema.safeParse(query);
    if (!parsed.success) return { status: 404, html: invalidConfirmLinkPage() };
    const row = await findEmailAddressByTokenHash(deps.db, hashToken(parsed.data.token));
    if (!row || row.status !== 'pending') return { status: 404, html: invalidConfirmLinkPage() };
    if (row.token_expires_at === null || row.token_expires_at <= deps.clock.now()) return { status: 410, html: expiredConfirmLinkPage() };
    return { row, token: parsed.data.token };
  };

  router.get('/api/email/confirm', limitReads, async (req, res) => {
    const target = await confirmTarget(req.query);
    if ('html' in target) return sendPage(res, target.status, target.html);
    const action = `/api/email/confirm?token=${encodeURIComponent(target.token)}`;
    sendPage(res, 200, confirmPromptPage({ email: target.row.email, titles: await titlesFor(target.row), action }));
  });

  router.post('/api/email/confirm', limitWrites, async (req, res) => {
    const target = await confirmTarget(req.query);
    if ('html' in target) return sendPage(res, target.status, target.html);
    await setEmailAddressStatus(deps.db, target.row.id, 'confirmed', deps.clock.now());
    deps.log.info({ emailAddressId: target.row.id }, 'email address confirmed');
    sendPage(res, 200, confirmedPage({ email: target.row.email, titles: await titlesFor(target.row) }));
  });

  /** The row a signed unsubscribe link names, or null. */
  const unsubscribeTarget = async (query: unknown): Promise<{ row: TEmailAddressRow; query: string } | null> => {
    const parsed = ZUnsubscribeQuerySchema.safeParse(query);
    if (!parsed.success || !isValidUnsubscribeToken(deps, parsed.data.id, parsed.data.token)) return null;
    const row = await findEmailAddressById(deps.db, parsed.data.id);
    return row ? { row, query: `id=${encodeURIComponent(parsed.data.id)}&token=${encodeURIComponent(parsed.data.token)}` } : null;
  };

  router.get('/api/email/unsubscribe', limitReads, async (req, res) => {
    const target = await unsubscribeTarget(req.query);
    if (!target) return sendPage(res, 404, invalidUnsubscribeLinkPage());
    const titles = await titlesFor(target.row);
    if (target.row.status === 'unsubscribed') {
      return sendPage(res, 200, unsubscribedPage({ email: target.row.email, titles, resubscribeAction: `/api/email/resubscribe?${target.query}` }));
    }
    sendPage(res, 200, unsubscribePromptPage({ email: target.row.email, titles, action: `/api/email/unsubscribe?${target.query}` }));
  });

  // The one-click POST (body `List-Unsubscribe=One-Click`, not needed: the signed link is the authority) and the page's button.
  router.post('/api/email/unsubscribe', limitWrites, async (req, res) => {
    const target = await unsubscribeTarget(req.query);
    if (!target) return sendPage(res, 404, invalidUnsubscribeLinkPage());
    if (target.row.status !== 'unsubscribed') {
      await setEmailAddressStatus(deps.db, target.row.id, 'unsubscribed', deps.clock.now());
      deps.log.info({ emailAddressId: target.row.id }, 'email address unsubscribed');
    }
    sendPage(res, 200, unsubscribedPage({ email: target.row.email, titles: await titlesFor(target.row), resubscribeAction: `/api/email/resubscribe?${target.query}` }));
  });

  // Only the recipient holds the signed link: subscribing again from it is their confirmation.
  router.post('/api/email/resubscribe', limitWrites, async (req, res) => {
    const target = await unsubscribeTarget(req.query);
    if (!target) return sendPage(res, 404, invalidUnsubscribeLinkPage());
    if (target.row.status !== 'confirmed') {
      await setEmailAddressStatus(deps.db, target.row.id, 'confirmed', deps.clock.now());
      deps.log.info({ emailAddressId: target.row.id }, 'email address subscribed again');
    }
    sendPage(res, 200, confirmedPage({ email: target.row.email, titles: await titlesFor(target.row) }));
  });

  return router;
}
