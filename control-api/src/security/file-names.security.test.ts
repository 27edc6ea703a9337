/**
 * Hostile file names (security checklist 15, 18; ASVS 5.3.2, 5.4.1-5.4.2): names with CR/LF,
 * quotes, NUL, right-to-left overrides, path parts, reserved device names or 1,000 characters
 * never reach a storage key, are shown cleaned, and come back in exactly one Content-Disposition
 * header, RFC 6266/5987-encoded, that no header can be injected through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadKey } from '@dropsite/shared';
import { makeZip } from '@dropsite/testkit/builder/media-fixtures';
import { loadConfig } from '../config/config.ts';
import { startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { unzip } from '@dropsite/testkit/control-api/download-fixtures';
import { multipartBody, publishFields, rawRequest, type TMultipartPart, type TRawResponse } from '@dropsite/testkit/control-api/security-support';

const DEFAULTS = loadConfig({});

/** What the client sends; written with filename* (RFC 5987) so CR, LF, NUL and quotes arrive as they are. */
const HOSTILE_NAMES = [
  'evil\r\nSet-Cookie: pwned=1\r\nX-Injected: yes.txt',
  'quote"; filename="evil.html.txt',
  "semi;colon=x; filename*=UTF-8''evil.html.txt",
  'invoice\u202Egpj.exe',
  'photo\u2066\u2069 \u200e.jpg',
  '../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%2e%2e%2fconfig.production.js',
  'a.png\u0000.html',
  'a.png%00.html',
  `${'a'.repeat(996)}.txt`,
  'CON',
  'nul.txt',
  '.htaccess',
  'tab\tand\vvertical.txt',
  'emoji 📷 café.txt',
  '\u0085next\u2028line.txt',
];

/** RFC 5987 ext-value of a name (every byte outside attr-char percent-encoded). */
function extValue(name: string): string {
  return `UTF-8''${encodeURIComponent(name).replace(/['()*!]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

/** Exactly one Content-Disposition, one line, a quoted ASCII fallback without quotes inside, and filename* for the rest. */
function expectSafeDisposition(res: TRawResponse, what: string): string {
  const names = res.rawHeaders.filter((_, i) => i % 2 === 0).map((h) => h.toLowerCase());
  expect(
    names.filter((n) => n === 'content-disposition'),
    what,
  ).toHaveLength(1);
  expect(names, what).not.toContain('x-injected');
  for (const cookie of res.headers['set-cookie'] ?? []) expect(cookie, what).not.toContain('pwned');
  const header = String(res.headers['content-disposition']);
  expect(header, what).not.toMatch(/[\r\n\0]/);
  const match = /^(attachment|inline); filename="([\x20-\x21\x23-\x7e]*)"; filename\*=UTF-8''([A-Za-z0-9%!#$&+^_`|~.-]*)$/.exec(header);
  expect(match, `${what}: ${header}`).not.toBeNull();
  expect(match![2], what).not.toContain('\\');
  return decodeURIComponent(match![3]!);
}

describe('hostile file names', () => {
  let app: TTestApp;
  let slug = '';
  let rows: Array<{ id: string; name: string; storage_key: string; project_id: string }> = [];
  let archiveId = '';

  beforeAll(async () => {
    app = await startTestApp({ config: { rateLimits: { ...DEFAULTS.rateLimits, readsPerMinute: 100_000 } } });
    const files = HOSTILE_NAMES.map((name, i) => ({ name, data: Buffer.from(`bytes of file ${i}\n`) }));
    const archive = makeZip([
      { name: 'say "hi".txt', data: 'quoted' },
      { name: 'semi;colon.txt', data: 'semicolon' },
      { name: 'line\r\nbreak.txt', data: 'crlf' },
      { name: 'café/naïve.txt', data: 'unicode' },
    ]);
    const parts: TMultipartPart[] = [
      ...publishFields([...files.map((f) => ({ name: f.name, type: 'text/plain', size: f.data.length })), { name: 'bundle.zip', type: 'application/zip', size: archive.length }]),
      ...files.map((f) => ({ name: 'files', dispositionExtra: `filename="upload.bin"; filename*=${extValue(f.name)}`, contentType: 'text/plain', data: f.data })),
      { name: 'files', dispositionExtra: 'filename="bundle.zip"', contentType: 'application/zip', data: archive },
    ];
    const { body, contentType } = multipartBody(parts);
    const res = await rawRequest(app.url, '/api/upload', { method: 'POST', headers: { 'content-type': contentType }, body });
    expect(res.status, res.text).toBe(201);
    slug = (JSON.parse(res.text) as { slug: string }).slug;
    await app.deps.queue.whenIdle();
    rows = await app.deps.db.selectFrom('files').select(['id', 'name', 'storage_key', 'project_id']).execute();
    archiveId = rows.find((r) => r.name === 'bundle.zip')!.id;
  }, 120_000);
  afterAll(async () => {
    await app?.close();
  });

  it('stores every file under a generated key and keeps a cleaned display name', async () => {
    expect(rows).toHaveLength(HOSTILE_NAMES.length + 1);
    for (const row of rows) {
      expect(row.storage_key).toBe(uploadKey(row.project_id, row.id));
      expect(row.name, JSON.stringify(row.name)).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069/\\]/);
      expect(row.name.startsWith('.'), row.name).toBe(false);
      expect(row.name.length).toBeLessThanOrEqual(255);
    }
    const names = rows.map((r) => r.name);
    expect(names).toContain('invoicegpj.exe');
    expect(names).toContain('passwd');
    expect(names).toContain('htaccess');
  });

  it('sends each name back in one safe Content-Disposition, for preview and download, with nothing injected', async () => {
    for (const row of rows) {
      for (const mode of ['download', 'preview']) {
        const res = await rawRequest(app.url, `/api/files/${row.id}?mode=${mode}`);
        expect(res.status, row.name).toBe(200);
        const decoded = expectSafeDisposition(res, `${mode} ${JSON.stringify(row.name)}`);
        if (mode === 'download' || !row.name.endsWith('.zip')) expect(decoded).toBe(row.name);
        // A name never decides how the bytes are served: nothing here may run in a browser.
        expect(String(res.headers['content-type'])).not.toMatch(/html|xml|svg|javascript/i);
        if (mode === 'download') expect(res.headers['content-disposition']).toMatch(/^attachment/);
      }
    }
  });

  it('writes safe entry names into the site ZIP', async () => {
    const res = await rawRequest(app.url, `/api/sites/${slug}/download`);
    expect(res.status).toBe(200);
    expectSafeDisposition(res, 'site ZIP');
    const entries = await unzip(res.body);
    expect(entries.size).toBe(rows.length);
    for (const name of entries.keys()) {
      expect(name, JSON.stringify(name)).not.toMatch(/[\u0000-\u001f\u007f/\\]/);
      expect(name.startsWith('.'), name).toBe(false);
      expect(name.split('/')).not.toContain('..');
    }
  });

  it('sends archive entry names in one safe Content-Disposition, and never an entry with a line break in its name', async () => {
    for (const [path, expected] of [
      ['say "hi".txt', 'quoted'],
      ['semi;colon.txt', 'semicolon'],
      ['café/naïve.txt', 'unicode'],
    ] as const) {
      const res = await rawRequest(app.url, `/api/files/${archiveId}/entry?path=${encodeURIComponent(path)}`);
      expect(res.status, path).toBe(200);
      expect(expectSafeDisposition(res, path)).toBe(path.split('/').at(-1));
      expect(res.text).toBe(expected);
    }
    const crlf = await rawRequest(app.url, `/api/files/${archiveId}/entry?path=${encodeURIComponent('line\r\nbreak.txt')}`);
    expect(crlf.status).toBe(404);
    expect(crlf.headers['x-injected']).toBeUndefined();
  });
});
