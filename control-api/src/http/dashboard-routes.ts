/**
 * Serves the built dashboard (dashboard/scripts/prerender.ts writes it): hashed assets; the
 * prerendered public pages by path (`pages/index.json`); the landing page (`index.html`, the app
 * prerendered); the app's empty document (`app.html`) at the app's own routes; the sitemap and
 * robots.txt; and the prerendered 404 page for everything else.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type express from 'express';
import { Router } from 'express';
import { z } from 'zod';
import { APP_PATHS, isAppPagePath } from '@dropsite/shared';
import { createLocalVariants } from './local-variants.ts';
import { sendVariant } from './send-variant.ts';

/** What the prerender writes absolute URLs with; replaced by PUBLIC_URL when a file is loaded. */
const PUBLIC_URL_PLACEHOLDER = /%PUBLIC_URL%/g;

const ZPageIndexSchema = z.record(z.string().startsWith('/'), z.string().regex(/^[\w.-]+\.html$/));

interface TDashboardRoutesOptions {
  /** The built dashboard (dashboard/dist). */
  dashboardDir: string;
  /** The dashboard's Content-Security-Policy (sites/site-csp.ts): its own bundles only, never framed. */
  csp: string;
  /** The public origin, written into canonical URLs, link previews and the sitemap. */
  publicUrl: string;
}

export function createDashboardRoutes({ dashboardDir, csp, publicUrl }: TDashboardRoutesOptions): { router: Router; sendNotFound: (res: express.Response) => void } {
  const router = Router();
  const cache = new Map<string, string | null>();
  /** A built file with the public origin filled in, read once (the build does not change under a running process). */
  const load = (relative: string): string | null => {
    if (!cache.has(relative)) {
      const file = path.join(dashboardDir, relative);
      cache.set(relative, existsSync(file) ? readFileSync(file, 'utf8').replace(PUBLIC_URL_PLACEHOLDER, publicUrl) : null);
    }
    return cache.get(relative) ?? null;
  };
  let pageIndex: Map<string, string> | null = null;
  const pageFile = (pathname: string): string | null => {
    if (pageIndex === null) {
      const text = load('pages/index.json');
      pageIndex = new Map(text === null ? [] : Object.entries(ZPageIndexSchema.parse(JSON.parse(text))));
    }
    const file = pageIndex.get(pathname);
    return file ? `pages/${file}` : null;
  };

  const sendHtml = (res: express.Response, status: number, relative: string) => {
    const html = load(relative) ?? (relative === 'pages/404.html' ? (load('app.html') ?? load('index.html')) : null);
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
        // Links in the URL carry secrets (/reset-password?token=…): no other origin is told the address.
        'Referrer-Policy': 'same-origin',
      })
      .send(html);
  };
  const sendText = (res: express.Response, relative: string, type: string) => {
    const text = load(relative);
    if (text === null) return false;
    res.status(200).set({ 'Content-Type': type, 'Cache-Control': 'public, max-age=3600', 'X-Content-Type-Options': 'nosniff' }).send(text);
    return true;
  };

  // Built files with the variants their build compressed (variant by Accept-Encoding, ETag, 304, Range): the
  // hashed bundles for good, the icons and the link picture for a day.
  const builtFile = createLocalVariants(dashboardDir);
  const sendBuiltFile =
    (cacheControl: string): express.RequestHandler =>
    async (req, res, next) => {
      const relative = req.path.slice(1);
      const source = builtFile(relative);
      if (!source) return next();
      res.type(path.extname(relative)).set({ 'Cache-Control': cacheControl, 'X-Content-Type-Options': 'nosniff' });
      if (await sendVariant(req, res, source, { ranges: true })) return;
      for (const header of ['Content-Type', 'Cache-Control', 'X-Content-Type-Options', 'Vary']) res.removeHeader(header);
      next();
    };
  router.get(/^\/assets\/./, sendBuiltFile('public, max-age=31536000, immutable'));
  router.get(['/favicon.svg', '/favicon.ico', '/og.png'], sendBuiltFile('public, max-age=86400'));
  router.get('/robots.txt', (_req, res, next) => (sendText(res, 'robots.txt', 'text/plain; charset=utf-8') ? undefined : next()));
  router.get('/sitemap.xml', (_req, res, next) => (sendText(res, 'sitemap.xml', 'application/xml; charset=utf-8') ? undefined : next()));
  router.get(/.*/, (req, res, next) => {
    const p = req.path.length > 1 ? req.path.replace(/\/+$/, '') : req.path;
    if (p === '/' || p === '/index.html') return sendHtml(res, 200, 'index.html');
    const page = p === '/404' ? null : pageFile(p);
    if (page) return sendHtml(res, 200, page);
    // The sign-in page with its first view drawn, when the build made it.
    if (p === APP_PATHS['sign-in'] && load('sign-in.html') !== null) return sendHtml(res, 200, 'sign-in.html');
    if (isAppPagePath(p)) return sendHtml(res, 200, load('app.html') === null ? 'index.html' : 'app.html');
    next();
  });
  return { router, sendNotFound: (res) => sendHtml(res, 404, 'pages/404.html') };
}
