/**
 * Uploaded active content opened in a real browser (security checklist 18, 19, 20, 21, 42): an
 * HTML file with a script, an SVG with a script, an XHTML file, HTML bytes named .png and a
 * script file are published, then opened by preview and download URL, top-level and framed or
 * embedded from a page of our own origin. No script of theirs may run: no dialog, no title
 * change, no message to the page, nothing read from our cookies or storage, no API call made
 * with the visitor's cookies; and the disguised PNG is never rendered as HTML.
 */
import { expect, test, type Page } from '@playwright/test';
import { publish, type TUploadFile } from './visitor-support.ts';

/** What every hostile file tries: announce itself, read what it can, call our API with the visitor's cookies. */
const PAYLOAD = `
(function () {
  var say = function (m) {
    try { (window.opener || window.parent || window).postMessage('xss:' + m, '*'); } catch (e) {}
    try { window.top.postMessage('xss:' + m, '*'); } catch (e) {}
    try { localStorage.setItem('xss-ran', m); } catch (e) {}
  };
  try { document.title = 'PWNED'; } catch (e) {}
  try { window.top.document.title = 'PWNED'; } catch (e) {}
  var stored = 'none';
  try { stored = String(localStorage.getItem('dropsite-secret')); } catch (e) { stored = 'blocked'; }
  say('ran cookie=' + document.cookie + ' storage=' + stored);
  try {
    fetch('/api/creators/anonymous/session', { credentials: 'include' })
      .then(function (r) { return r.text(); })
      .then(function (t) { say('api ' + t); }, function () { say('api failed'); });
  } catch (e) {}
  try { alert('xss'); } catch (e) {}
})();
`;

const HOSTILE_FILES: TUploadFile[] = [
  {
    name: 'attack.html',
    type: 'text/html',
    bytes: Buffer.from(
      `<!doctype html><html><head><title>attack</title></head><body><h1>attack</h1><script>${PAYLOAD}</script><img src="x" onerror="${PAYLOAD.replace(/"/g, '&quot;').replace(/\n/g, ' ')}"></body></html>`,
    ),
  },
  {
    name: 'attack.svg',
    type: 'image/svg+xml',
    bytes: Buffer.from(
      `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="200" height="200" onload="${PAYLOAD.replace(/"/g, '&quot;').replace(/&&/g, '&amp;&amp;').replace(/</g, '&lt;').replace(/\n/g, ' ')}"><script type="text/javascript"><![CDATA[${PAYLOAD}]]></script><rect width="200" height="200" fill="red"/></svg>`,
    ),
  },
  {
    name: 'attack.xhtml',
    type: 'application/xhtml+xml',
    bytes: Buffer.from(
      `<?xml version="1.0" encoding="UTF-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>attack</title></head><body><p>attack</p><script type="text/javascript"><![CDATA[${PAYLOAD}]]></script></body></html>`,
    ),
  },
  { name: 'disguised.png', type: 'image/png', bytes: Buffer.from(`<!doctype html><html><body><h1>not a picture</h1><script>${PAYLOAD}</script></body></html>`) },
  { name: 'payload.js', type: 'text/javascript', bytes: Buffer.from(PAYLOAD) },
];

interface TWatch {
  dialogs: string[];
  pages: number;
}

/** Dialogs and popups anywhere in the context, and our page's message listener and secret. */
async function watch(page: Page): Promise<TWatch> {
  const seen: TWatch = { dialogs: [], pages: 0 };
  page.on('dialog', (dialog) => {
    seen.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.context().on('page', (popup) => {
    seen.pages += 1;
    popup.on('dialog', (dialog) => {
      seen.dialogs.push(dialog.message());
      void dialog.dismiss();
    });
  });
  return seen;
}

/** Whether any hostile script left a trace on our origin's page. */
async function tracesOnOurOrigin(page: Page, slug: string): Promise<{ title: string; ran: string | null }> {
  if (!page.url().includes(`/${slug}`)) await page.goto(`/${slug}`);
  return page.evaluate(() => ({ title: document.title, ran: localStorage.getItem('xss-ran') }));
}

test.describe('uploaded HTML, SVG, XHTML, scripts and disguised files stay inert in Chromium', () => {
  let slug = '';
  const ids: Record<string, string> = {};

  test.beforeAll(async ({ request }) => {
    slug = await publish(request, HOSTILE_FILES, { title: 'Uploaded content' });
    // File ids from the published page; each one's name from its own download header.
    const html = await (await request.get(`/${slug}`)).text();
    const found = new Set([...html.matchAll(/\/api\/files\/([A-Za-z0-9_-]{22})/g)].map((m) => m[1]!));
    for (const id of found) {
      const res = await request.head(`/api/files/${id}?mode=download`);
      const name = /filename="([^"]*)"/.exec(res.headers()['content-disposition'] ?? '')?.[1];
      if (name) ids[name] = id;
    }
    expect(Object.keys(ids).sort()).toEqual(HOSTILE_FILES.map((f) => f.name).sort());
  });

  test('answers every preview and download of these files with nosniff, a sandbox CSP and a type that cannot run', async ({ request }) => {
    for (const file of HOSTILE_FILES) {
      for (const mode of ['preview', 'download']) {
        const res = await request.get(`/api/files/${ids[file.name]}?mode=${mode}`);
        const headers = res.headers();
        const what = `${file.name} ${mode}`;
        expect(res.status(), what).toBe(200);
        expect(headers['x-content-type-options'], what).toBe('nosniff');
        expect(headers['content-security-policy'], what).toMatch(/^sandbox(;|$)/);
        expect(headers['content-security-policy'], what).not.toContain('allow-scripts');
        expect(headers['content-type'], what).not.toMatch(/html|xml|svg|javascript|ecmascript/i);
        if (mode === 'download' || file.name !== 'disguised.png') expect(headers['content-disposition'], what).toMatch(/^attachment/);
      }
    }
  });

  test('runs no script when each file is opened top-level, by preview and by download URL', async ({ page }) => {
    const seen = await watch(page);
    await page.goto(`/${slug}`);
    await page.evaluate(() => localStorage.setItem('dropsite-secret', 's3cret-of-our-origin'));
    for (const file of HOSTILE_FILES) {
      for (const mode of ['preview', 'download']) {
        const url = `/api/files/${ids[file.name]}?mode=${mode}`;
        const download = page.waitForEvent('download', { timeout: 5_000 }).catch(() => null);
        const response = await page.goto(url).catch((error: Error) => error);
        const started = await download;
        const what = `${file.name} ${mode}`;
        if (started) {
          // Handed to the browser as a file to save: nothing was rendered.
          expect(started.suggestedFilename(), what).toBe(file.name);
          await started.cancel();
          await started.failure(); // the download is over (cancelled, or done before that) before the next one
        } else {
          // Only the disguised PNG's preview is shown inline: as an image, never as a page.
          expect(file.name, `${what} was rendered inline`).toBe('disguised.png');
          expect(response instanceof Error ? response.message : response?.status(), what).toBe(200);
          const rendered = await page.evaluate(() => ({
            type: document.contentType,
            scripts: document.querySelectorAll('script').length,
            h1: document.querySelectorAll('h1').length,
            title: document.title,
          }));
          expect(rendered.type, what).toBe('image/png');
          expect(rendered.scripts, what).toBe(0);
          expect(rendered.h1, what).toBe(0);
          expect(rendered.title, what).not.toBe('PWNED');
        }
      }
    }
    const traces = await tracesOnOurOrigin(page, slug);
    expect(traces.ran).toBeNull();
    expect(traces.title).not.toBe('PWNED');
    expect(seen.dialogs).toEqual([]);
    expect(seen.pages).toBe(0);
  });

  test('runs no script when our own page frames, embeds or loads each file', async ({ page }) => {
    const seen = await watch(page);
    await page.goto(`/${slug}`);
    const titleBefore = await page.title();
    const result = await page.evaluate(async (fileIds) => {
      localStorage.setItem('dropsite-secret', 's3cret-of-our-origin');
      const messages: string[] = [];
      window.addEventListener('message', (event) => messages.push(String(event.data)));
      const scriptErrors: string[] = [];
      for (const id of Object.values(fileIds)) {
        for (const mode of ['preview', 'download']) {
          const src = `/api/files/${id}?mode=${mode}`;
          for (const [tag, attribute] of [
            ['iframe', 'src'],
            ['object', 'data'],
            ['embed', 'src'],
            ['img', 'src'],
          ] as const) {
            const element = document.createElement(tag);
            element.setAttribute(attribute, src);
            document.body.append(element);
          }
          // An uploaded script loaded by a page of our origin (CSP 'self' would allow its origin).
          const script = document.createElement('script');
          script.src = src;
          script.onerror = () => scriptErrors.push(src);
          document.body.append(script);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 3000));
      // What a framed document exposes to us, if anything rendered as a page of our origin.
      const framed = [...document.querySelectorAll('iframe')].map((frame) => {
        try {
          return frame.contentDocument?.querySelectorAll('script').length ?? -1;
        } catch {
          return -1;
        }
      });
      return { messages, scriptErrors: scriptErrors.length, framedScripts: framed.filter((n) => n > 0).length, ran: localStorage.getItem('xss-ran'), title: document.title };
    }, ids);
    expect(result.messages.filter((m) => m.startsWith('xss:'))).toEqual([]);
    expect(result.framedScripts).toBe(0);
    expect(result.ran).toBeNull();
    expect(result.title).toBe(titleBefore);
    // Every script load was refused (nosniff with a type that is not JavaScript).
    expect(result.scriptErrors).toBe(Object.keys(ids).length * 2);
    expect(seen.dialogs).toEqual([]);
    expect(seen.pages).toBe(0);
  });

  test('gives a script nothing of the visitor even where it could run: cookies are HttpOnly', async ({ page, context }) => {
    await page.goto(`/${slug}`);
    await page.evaluate(() => fetch('/api/engagement/state?projectId=x', { credentials: 'include' }));
    const cookies = await context.cookies();
    expect(cookies.length).toBeGreaterThan(0);
    for (const cookie of cookies.filter((c) => c.name.startsWith('dropsite_') || c.name.startsWith('__Host-dropsite_'))) expect(cookie.httpOnly, cookie.name).toBe(true);
    expect(await page.evaluate(() => document.cookie)).toBe('');
  });
});
