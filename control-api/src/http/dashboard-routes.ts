/** Serves the built dashboard: hashed assets, and index.html for every app route. */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import express, { Router } from 'express';
import { isValidId } from '@dropsite/shared';

/**
 * Paths the dashboard app renders. Other app paths of the route table (/templates, /faq,
 * /billing…) are reserved as slugs and answer the app's 404 page until their page exists.
 */
const DASHBOARD_ROUTES = ['/', '/sign-in', '/reset-password', '/verify-email', '/account', '/dashboard'];
/** A project of the creator's dashboard: any well-formed id (the page asks the API whether it is theirs). */
const PROJECT_PAGE_PREFIX = '/dashboard/projects/';

/** Whether the dashboard app has a page at `pathname` (no trailing slash but the root's). */
export function isDashboardRoute(pathname: string): boolean {
  if (DASHBOARD_ROUTES.includes(pathname)) return true;
  return pathname.startsWith(PROJECT_PAGE_PREFIX) && isValidId(pathname.slice(PROJECT_PAGE_PREFIX.length));
}

/**
 * `csp` is the dashboard's Content-Security-Policy (sites/site-csp.ts): its own bundles only, never framed.
 */
export function createDashboardRoutes(dashboardDir: string, csp: string): { router: Router; sendNotFound: (res: express.Response) => void } {
  const router = Router();
  const indexPath = path.join(dashboardDir, 'index.html');
  let indexHtml: string | null = null;
  const readIndex = () => {
    if (indexHtml === null && existsSync(indexPath)) indexHtml = readFileSync(indexPath, 'utf8');
    return indexHtml;
  };
  const sendIndex = (res: express.Response, status: number) => {
    const html = readIndex();
    if (html === null) {
      res
        .status(status === 200 ? 503 : status)
        .type('text/plain')
        .send('The dashboard is not built. Run `npm run build`.');
      return;
    }
    res
      .status(status)
      .set({
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': 'no-cache',
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': csp,
        'X-Frame-Options': 'DENY',
      })
      .send(html);
  };

  const nosniff = (res: express.Response) => res.setHeader('X-Content-Type-Options', 'nosniff');
  router.use('/assets', express.static(path.join(dashboardDir, 'assets'), { immutable: true, maxAge: '1y', index: false, fallthrough: true, setHeaders: nosniff }));
  router.get(['/favicon.svg', '/favicon.ico', '/robots.txt'], express.static(dashboardDir, { index: false, maxAge: '1d', setHeaders: nosniff }));
  router.get(/.*/, (req, res, next) => {
    const p = req.path.length > 1 ? req.path.replace(/\/+$/, '') : req.path;
    if (isDashboardRoute(p)) return sendIndex(res, 200);
    next();
  });
  return { router, sendNotFound: (res) => sendIndex(res, 404) };
}
