/**
 * The public forms' calls: POST /api/contact, /api/feedback, /api/sales and /api/newsletter, and the
 * newsletter's confirmation and unsubscribe links. A form posts JSON (the page script) or, with
 * JavaScript off, a classic urlencoded form: JSON callers get JSON, form posts a small HTML page
 * (the confirmation, or why it was refused) with a link back to the form's page.
 */
import express, { type ErrorRequestHandler, type Request, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import {
  FORM_CONFIRMATIONS,
  HONEYPOT_FIELD,
  ZContactRequestSchema,
  ZFeedbackRequestSchema,
  ZNewsletterRequestSchema,
  ZSalesRequestSchema,
  type TFormKind,
  type TFormReply,
} from '@dropsite/shared';
import type { TInboxDeps } from './inbox.deps.ts';
import { clientAddress, limitByAddress } from '../access/request-limits.ts';
import { AppError } from '../http/app-error.ts';
import { toAppError } from '../http/error-middleware.ts';
import { rejectInvalidUtf8 } from '../http/json-body.ts';
import { admitFormSubmission } from './form-limits.ts';
import {
  formRefusedPage,
  formSentPage,
  newsletterConfirmedPage,
  newsletterConfirmPromptPage,
  newsletterExpiredConfirmLinkPage,
  newsletterInvalidConfirmLinkPage,
  newsletterInvalidUnsubscribeLinkPage,
  newsletterUnsubscribedPage,
  newsletterUnsubscribePromptPage,
} from './inbox-pages.ts';
import {
  confirmSubscriber,
  findConfirmTarget,
  findUnsubscribeTarget,
  newsletterUnsubscribeQuery,
  subscribeToNewsletter,
  takeMessage,
  unsubscribeSubscriber,
} from './inbox.service.ts';
import { sendStandalonePage } from '../http/standalone-page.ts';
import { createApiRouters, type TApiPrefix, type TApiRouters } from '../http/api-routers.ts';

const FORM_PATHS: Record<TFormKind, TApiPrefix> = { contact: '/api/contact', feedback: '/api/feedback', sales: '/api/sales', newsletter: '/api/newsletter' };

/** A classic form post (JavaScript off): answered with a page, not JSON. */
function isFormPost(req: Request): boolean {
  return Boolean(req.is('application/x-www-form-urlencoded'));
}

/** The body by the form's schema; the first problem is the answer: 413 when a field is too long, else 400, naming the field. */
function parseForm<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = typeof issue?.path[0] === 'string' ? issue.path[0] : undefined;
  throw new AppError(issue?.code === 'too_big' ? 'payload_too_large' : 'validation_failed', issue?.message ?? 'Invalid request', field ? { details: { field } } : {});
}

function sendTaken(req: Request, res: Response, kind: TFormKind, status: number): void {
  if (isFormPost(req)) {
    sendStandalonePage(res, 200, formSentPage(kind));
    return;
  }
  const { title, body } = FORM_CONFIRMATIONS[kind];
  const reply: TFormReply = { success: true, title, message: body };
  res.status(status).set('Cache-Control', 'no-store').json(reply);
}

export function createInboxRoutes(deps: TInboxDeps): TApiRouters {
  const routes = createApiRouters();
  // Classic form posts; JSON is read by the app's parser. 5,000 characters percent-encoded fit well within this.
  const urlencoded = express.urlencoded({ extended: false, limit: '128kb', parameterLimit: 20, verify: rejectInvalidUtf8 });

  /** Counts the submission against the address (after a valid body: fixing a refused form costs nothing); a filled honeypot is answered as sent. */
  async function isTaken(req: Request, kind: TFormKind, honeypot: string | undefined): Promise<boolean> {
    await admitFormSubmission(deps.limits.forms, clientAddress(req));
    if (!honeypot?.trim()) return true;
    deps.log.info({ kind, requestId: req.res?.locals.requestId }, 'form with its hidden field filled: answered as sent, not stored');
    return false;
  }

  const takeForm: Record<TFormKind, RequestHandler> = {
    contact: async (req, res) => {
      const data = parseForm(ZContactRequestSchema, req.body);
      if (await isTaken(req, 'contact', data[HONEYPOT_FIELD])) await takeMessage(deps, { kind: 'contact', data });
      sendTaken(req, res, 'contact', 201);
    },
    feedback: async (req, res) => {
      const data = parseForm(ZFeedbackRequestSchema, req.body);
      if (await isTaken(req, 'feedback', data[HONEYPOT_FIELD])) await takeMessage(deps, { kind: 'feedback', data });
      sendTaken(req, res, 'feedback', 201);
    },
    sales: async (req, res) => {
      const data = parseForm(ZSalesRequestSchema, req.body);
      if (await isTaken(req, 'sales', data[HONEYPOT_FIELD])) await takeMessage(deps, { kind: 'sales', data });
      sendTaken(req, res, 'sales', 201);
    },
    newsletter: async (req, res) => {
      const data = parseForm(ZNewsletterRequestSchema, req.body);
      if (await isTaken(req, 'newsletter', data[HONEYPOT_FIELD])) await subscribeToNewsletter(deps, data.email);
      sendTaken(req, res, 'newsletter', 202);
    },
  };

  // A refused classic form post gets a page saying why; JSON callers go on to the app's error envelope.
  const refusedPage: ErrorRequestHandler = (err, req, res, next) => {
    if (!isFormPost(req)) return next(err);
    const error = toAppError(err);
    const path = req.originalUrl.split('?', 1)[0];
    if (error.status >= 500) deps.log.error({ err: error.cause ?? error, path }, 'request failed');
    const kind = (Object.keys(FORM_PATHS) as TFormKind[]).find((k) => FORM_PATHS[k] === path) ?? 'contact';
    res.set(error.headers);
    sendStandalonePage(res, error.status, formRefusedPage(kind, error.message, error.code === 'rate_limited'));
  };

  for (const kind of Object.keys(FORM_PATHS) as TFormKind[]) {
    const form = routes.at(FORM_PATHS[kind]);
    form.use(urlencoded);
    form.post('/', takeForm[kind]);
    form.use(refusedPage);
  }
  return routes.routers;
}

const ZConfirmQuerySchema = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/) });
const ZUnsubscribeQuerySchema = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/), token: z.string().regex(/^[A-Za-z0-9_-]{43}$/) });

/**
 * The newsletter's links. GET shows a page with a button (link scanners and previews fetch links;
 * only the recipient's click, a POST, changes anything); POST /api/newsletter/unsubscribe is also the
 * RFC 8058 one-click a mail client sends. The token in the URL is the authority, so these are
 * mounted before the Origin check.
 */
export function createNewsletterLinkRoutes(deps: TInboxDeps): TApiRouters {
  const routes = createApiRouters();
  const limitReads = limitByAddress(deps.limits.requests.reads);
  const limitWrites = limitByAddress(deps.limits.requests.writes);

  async function confirmTarget(req: Request, res: Response) {
    const query = ZConfirmQuerySchema.safeParse(req.query);
    if (!query.success) return void sendStandalonePage(res, 404, newsletterInvalidConfirmLinkPage());
    const target = await findConfirmTarget(deps, query.data.token);
    if ('problem' in target) {
      return void (target.problem === 'expired'
        ? sendStandalonePage(res, 410, newsletterExpiredConfirmLinkPage())
        : sendStandalonePage(res, 404, newsletterInvalidConfirmLinkPage()));
    }
    return { row: target.row, action: `/api/newsletter/confirm?token=${encodeURIComponent(query.data.token)}` };
  }

  routes.at('/api/newsletter').get('/confirm', limitReads, async (req, res) => {
    const target = await confirmTarget(req, res);
    if (!target) return;
    if (target.row.status === 'confirmed') return sendStandalonePage(res, 200, newsletterConfirmedPage(target.row.email));
    sendStandalonePage(res, 200, newsletterConfirmPromptPage({ email: target.row.email, action: target.action }));
  });

  routes.at('/api/newsletter').post('/confirm', limitWrites, async (req, res) => {
    const target = await confirmTarget(req, res);
    if (!target) return;
    await confirmSubscriber(deps, target.row);
    sendStandalonePage(res, 200, newsletterConfirmedPage(target.row.email));
  });

  async function unsubscribeTarget(req: Request, res: Response) {
    const query = ZUnsubscribeQuerySchema.safeParse(req.query);
    const row = query.success ? await findUnsubscribeTarget(deps, query.data.id, query.data.token) : null;
    if (!row) return void sendStandalonePage(res, 404, newsletterInvalidUnsubscribeLinkPage());
    return row;
  }

  routes.at('/api/newsletter').get('/unsubscribe', limitReads, async (req, res) => {
    const row = await unsubscribeTarget(req, res);
    if (!row) return;
    if (row.status === 'unsubscribed') return sendStandalonePage(res, 200, newsletterUnsubscribedPage(row.email));
    sendStandalonePage(res, 200, newsletterUnsubscribePromptPage({ email: row.email, action: `/api/newsletter/unsubscribe?${newsletterUnsubscribeQuery(deps, row.id)}` }));
  });

  // The page's button, and the one-click POST (body `List-Unsubscribe=One-Click`, not needed: the signed link is the authority).
  routes.at('/api/newsletter').post('/unsubscribe', limitWrites, async (req, res) => {
    const row = await unsubscribeTarget(req, res);
    if (!row) return;
    await unsubscribeSubscriber(deps, row);
    sendStandalonePage(res, 200, newsletterUnsubscribedPage(row.email));
  });

  return routes.routers;
}
