/**
 * The links in our email: GET /api/email/confirm and /api/email/unsubscribe show a page with a
 * button (link scanners and previews fetch links; only the recipient's click, a POST, changes
 * anything); POST /api/email/unsubscribe is also the RFC 8058 one-click a mail client sends.
 * The token in the URL is the authority (a random confirmation token, or the row id signed with
 * a server key), so these POSTs need no Origin: they are mounted before the origin check.
 */
import type { TNotificationsDeps } from './notifications.deps.ts';
import { limitByAddress } from '../access/request-limits.ts';
import { confirmTarget, setAddressStatus, titlesFor, unsubscribeTarget } from './email-links.service.ts';
import { confirmedPage, confirmPromptPage, invalidUnsubscribeLinkPage, unsubscribedPage, unsubscribePromptPage } from './email-pages.ts';
import { sendStandalonePage } from '../http/standalone-page.ts';
import { createApiRouters, type TApiRouters } from '../http/api-routers.ts';

/** What else happens when an address is confirmed: answers whether a sign-in link was mailed with it (app.ts wires the accounts' claim link). */
export type TAfterConfirm = (address: { email: string; owner_key: string }) => Promise<boolean>;

export function createEmailRoutes(deps: TNotificationsDeps, afterConfirm: TAfterConfirm = async () => false): TApiRouters {
  const routes = createApiRouters();
  const limits = deps.limits.requests;
  const limitReads = limitByAddress(limits.reads);
  const limitWrites = limitByAddress(limits.writes);

  routes.at('/api/email').get('/confirm', limitReads, async (req, res) => {
    const target = await confirmTarget(deps, req.query);
    if ('html' in target) return sendStandalonePage(res, target.status, target.html);
    const action = `/api/email/confirm?token=${encodeURIComponent(target.token)}`;
    sendStandalonePage(res, 200, confirmPromptPage({ email: target.row.email, titles: await titlesFor(deps, target.row), action }));
  });

  routes.at('/api/email').post('/confirm', limitWrites, async (req, res) => {
    const target = await confirmTarget(deps, req.query);
    if ('html' in target) return sendStandalonePage(res, target.status, target.html);
    await setAddressStatus(deps, target.row.id, 'confirmed', 'email address confirmed');
    // Given in the email prompt before it was confirmed: the sign-in link that keeps the sites follows.
    const sentSignInLink = await afterConfirm(target.row);
    sendStandalonePage(res, 200, confirmedPage({ email: target.row.email, titles: await titlesFor(deps, target.row), sentSignInLink }));
  });

  routes.at('/api/email').get('/unsubscribe', limitReads, async (req, res) => {
    const target = await unsubscribeTarget(deps, req.query);
    if (!target) return sendStandalonePage(res, 404, invalidUnsubscribeLinkPage());
    const titles = await titlesFor(deps, target.row);
    if (target.row.status === 'unsubscribed') {
      return sendStandalonePage(res, 200, unsubscribedPage({ email: target.row.email, titles, resubscribeAction: `/api/email/resubscribe?${target.query}` }));
    }
    sendStandalonePage(res, 200, unsubscribePromptPage({ email: target.row.email, titles, action: `/api/email/unsubscribe?${target.query}` }));
  });

  // The one-click POST (body `List-Unsubscribe=One-Click`, not needed: the signed link is the authority) and the page's button.
  routes.at('/api/email').post('/unsubscribe', limitWrites, async (req, res) => {
    const target = await unsubscribeTarget(deps, req.query);
    if (!target) return sendStandalonePage(res, 404, invalidUnsubscribeLinkPage());
    if (target.row.status !== 'unsubscribed') {
      await setAddressStatus(deps, target.row.id, 'unsubscribed', 'email address unsubscribed');
    }
    sendStandalonePage(
      res,
      200,
      unsubscribedPage({ email: target.row.email, titles: await titlesFor(deps, target.row), resubscribeAction: `/api/email/resubscribe?${target.query}` }),
    );
  });

  // Only the recipient holds the signed link: subscribing again from it is their confirmation.
  routes.at('/api/email').post('/resubscribe', limitWrites, async (req, res) => {
    const target = await unsubscribeTarget(deps, req.query);
    if (!target) return sendStandalonePage(res, 404, invalidUnsubscribeLinkPage());
    if (target.row.status !== 'confirmed') {
      await setAddressStatus(deps, target.row.id, 'confirmed', 'email address subscribed again');
    }
    sendStandalonePage(res, 200, confirmedPage({ email: target.row.email, titles: await titlesFor(deps, target.row) }));
  });

  return routes.routers;
}
