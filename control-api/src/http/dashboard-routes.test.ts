import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDashboardRoutes, isDashboardRoute } from './dashboard-routes.ts';

describe('dashboard app paths', () => {
  it('knows the account pages, the dashboard and its project pages', () => {
    for (const p of ['/', '/sign-in', '/reset-password', '/verify-email', '/account', '/dashboard', '/dashboard/projects/AbCdEfGh12345678_-'])
      expect(isDashboardRoute(p), p).toBe(true);
  });

  it('leaves every other path to the sites and the 404 page', () => {
    for (const p of [
      '/billing',
      '/templates',
      '/sign-up',
      '/dashboard/projects',
      '/dashboard/projects/short',
      '/dashboard/projects/AbCdEfGh12345678/x',
      '/dashboard/settings',
      '/account/x',
    ])
      expect(isDashboardRoute(p), p).toBe(false);
  });

  describe('served', () => {
    let dir = '';
    let server: ReturnType<express.Express['listen']>;
    let url = '';

    beforeAll(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), 'dropsite-dashboard-'));
      await writeFile(path.join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
      const app = express();
      const dashboard = createDashboardRoutes(dir, "default-src 'self'");
      app.use(dashboard.router);
      app.use((_req, res) => dashboard.sendNotFound(res));
      await new Promise<void>((resolve) => {
        server = app.listen(0, '127.0.0.1', () => resolve());
      });
      const address = server.address();
      url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    });
    afterAll(async () => {
      await new Promise((resolve) => server.close(resolve));
      await rm(dir, { recursive: true, force: true });
    });

    it('answers 200 with the app at its pages (trailing slash too) and the real 404 elsewhere', async () => {
      for (const [p, status] of [
        ['/sign-in?mode=sign-up&returnTo=%2F', 200],
        ['/account/', 200],
        ['/reset-password?token=x', 200],
        ['/verify-email?token=x', 200],
        ['/nope', 404],
        ['/billing', 404],
      ] as const) {
        const res = await fetch(`${url}${p}`);
        expect(res.status, p).toBe(status);
        expect(res.headers.get('content-security-policy')).toBe("default-src 'self'");
        expect(await res.text()).toContain('id="root"');
      }
    });
  });
});
