import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as cheerio from 'cheerio';
import { previewFileUrl } from '@dropsite/shared';
import { startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
// The builder's helper that builds the site template once for every test process that renders with it.
import { ensureTemplateBuilt } from '@dropsite/testkit/builder/ensure-template-built';

async function listAllKeys(app: TTestApp): Promise<string[]> {
  const keys: string[] = [];
  for await (const o of app.deps.storage.list('')) keys.push(o.key);
  return keys;
}

const post = (app: TTestApp, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${app.url}/api/preview`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });

const DRAFT = {
  title: 'Harper & Cole <Wedding>',
  description: 'Ceremony and portraits, 12 May',
  authorName: 'Ana Ruiz',
  template: 'photo-gallery',
  settings: { enableFavorites: true, enableComments: false, enableApprovals: false, enableAnalytics: true, enableNotifications: false },
  files: [
    { clientId: 'f1', name: 'golden-hour.jpg', type: 'image/jpeg', size: 120_000, width: 1200, height: 800 },
    { clientId: 'f2', name: 'ceremony.jpg', type: 'image/jpeg', size: 90_000, width: 800, height: 1200 },
    { clientId: 'f3', name: 'contract.pdf', type: 'application/pdf', size: 40_000 },
  ],
};

describe('POST /api/preview', () => {
  let app: TTestApp;
  beforeAll(async () => {
    await ensureTemplateBuilt();
    app = await startTestApp({ startWorker: false });
  });
  afterAll(async () => {
    await app.close();
  });

  it('renders the draft with the published template, escaped, with placeholder file URLs and nothing stored', async () => {
    const res = await post(app, DRAFT);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const html = await res.text();
    const $ = cheerio.load(html);

    expect($('h1').first().text()).toContain('Harper & Cole <Wedding>');
    // Escaped: the creator's text never becomes markup (inside quoted attributes '<' is inert).
    expect($('wedding').length).toBe(0);
    expect(html.replace(/"[^"]*"/g, '')).not.toContain('<Wedding>');
    expect(html).toContain('Ceremony and portraits, 12 May');
    expect(html).toContain('By Ana Ruiz');
    for (const name of ['golden-hour.jpg', 'ceremony.jpg', 'contract.pdf']) expect(html).toContain(name);

    // The images point at the placeholders the wizard swaps for object URLs, never at stored files.
    const sources = $('img')
      .map((_, el) => $(el).attr('src'))
      .get();
    expect(sources).toEqual(expect.arrayContaining([previewFileUrl('f1'), previewFileUrl('f2')]));
    expect(html).not.toContain('/api/files/');
    expect(html).toContain(previewFileUrl('f3'));

    // The same build as published sites: island bundles and CSS come from the shared /_astro/ assets.
    expect($('link[rel="stylesheet"], script[type="module"]').length + $('astro-island').length).toBeGreaterThan(0);

    expect(await listAllKeys(app)).toEqual([]);
    const sites = await app.deps.db.selectFrom('projects').selectAll().execute();
    expect(sites).toEqual([]);
  });

  it('uses the image sizes the wizard measured so thumbnails keep their shape', async () => {
    const html = await (await post(app, DRAFT)).text();
    const $ = cheerio.load(html);
    const img = $(`img[src="${previewFileUrl('f1')}"]`).first();
    expect(img.length).toBe(1);
    const width = Number(img.attr('width'));
    const height = Number(img.attr('height'));
    if (width && height) expect(width / height).toBeCloseTo(1.5, 1);
  });

  it('renders an empty draft (no title yet, no files) without failing', async () => {
    const res = await post(app, { files: [] });
    expect(res.status).toBe(200);
  });

  it('refuses bad drafts with a readable 400', async () => {
    const cases: unknown[] = [
      { files: [{ clientId: '../etc', name: 'a.jpg', size: 1 }] },
      { files: [{ clientId: 'ok', name: '', size: 1 }] },
      { files: [{ clientId: 'ok', name: 'a.jpg', size: -1 }] },
      { files: [{ clientId: 'ok', name: 'a.jpg', size: 1.5 }] },
      { template: 'not-a-template', files: [] },
      { title: 'x'.repeat(201), files: [] },
      { settings: { enableComments: 'yes' }, files: [] },
      { files: Array.from({ length: 501 }, (_, i) => ({ clientId: `f${i}`, name: `${i}.jpg`, size: 1 })) },
      [],
      'null',
    ];
    for (const body of cases) {
      const res = await post(app, body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      const json = (await res.json()) as { success: boolean; code: string; error: string };
      expect(json.success).toBe(false);
      expect(json.error.length).toBeGreaterThan(0);
    }
  });

  it('refuses malformed JSON, other content types, oversized bodies and foreign origins', async () => {
    expect((await post(app, '{"files": [')).status).toBe(400);
    const form = await fetch(`${app.url}/api/preview`, { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: '{}' });
    expect(form.status).toBe(400);
    const huge = { files: [], description: 'x'.repeat(600 * 1024) };
    const tooLarge = await post(app, huge);
    expect(tooLarge.status).toBe(413);
    expect(((await tooLarge.json()) as { code: string }).code).toBe('payload_too_large');
    const foreign = await post(app, DRAFT, { Origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
  });

  it('accepts a 500-file draft larger than the general 64 KB JSON limit', async () => {
    const files = Array.from({ length: 500 }, (_, i) => ({
      clientId: `file-${i}`,
      name: `wedding-day-${String(i).padStart(3, '0')}-${'long-name-'.repeat(8)}.jpg`,
      type: 'image/jpeg',
      size: 2_000_000 + i,
      width: 3000,
      height: 2000,
    }));
    const body = JSON.stringify({ title: 'Big day', files });
    expect(body.length).toBeGreaterThan(64 * 1024);
    const res = await post(app, body);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('wedding-day-499');
  });

  it('answers GET with 404 (only POST renders)', async () => {
    expect((await fetch(`${app.url}/api/preview`)).status).toBe(404);
  });
});
