/**
 * What the builder puts in a public page is public: a published site's stored HTML (and the props
 * its React islands are hydrated with) carries no notification address, Slack webhook, password
 * hash, owner or anonymous-creator id, or storage key; neither does the wizard's preview. Sites
 * stored before this rule are rewritten once at start-up.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as cheerio from 'cheerio';
import type { Kysely } from 'kysely';
import { PUBLIC_SITE_SETTING_KEYS, siteHtmlKey } from '@dropsite/shared';
import { startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { buildUploadForm, makeJpeg } from '@dropsite/testkit/control-api/fixtures';
import { makeFileRow, makeSiteRow } from '@dropsite/testkit/control-api/test-database';
import { createSiteWithFiles } from '../site-records/site-records.repository.ts';
import { ensureTemplateBuilt } from '@dropsite/testkit/builder/ensure-template-built';
import { makePdf } from '@dropsite/testkit/builder/media-fixtures';

const NOTIFY = 'owner-inbox@studio-private.example';
const WEBHOOK = 'https://hooks.slack.com/services/T0PRIVATE/B0PRIVATE/s3cr3tW3bh00kT0k3n';
const OWNER_SETTINGS = {
  enableFavorites: true,
  enableComments: true,
  enableApprovals: true,
  enableAnalytics: true,
  enableNotifications: true,
  notificationEmail: NOTIFY,
  slackWebhook: WEBHOOK,
};
/** Keys only the owner's side knows; none may appear in a public page's island props. */
const OWNER_KEYS = [
  'notificationEmail',
  'slackWebhook',
  'enableNotifications',
  'password',
  'passwordHash',
  'password_hash',
  'passwordVersion',
  'ownerCreatorId',
  'owner_creator_id',
  'anonymousSessionId',
  'anonymous_session_id',
  'storageKey',
  'storage_key',
  'sha256',
];

async function readStored(app: TTestApp, key: string): Promise<string> {
  const { body } = await app.deps.storage.get(key);
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}

/** Every key and every string value in the props of every island of the page, decoded as Astro serialised them. */
function islandProps(html: string): { count: number; keys: Set<string>; strings: string[]; settings: Array<Record<string, unknown>> } {
  const $ = cheerio.load(html);
  const keys = new Set<string>();
  const strings: string[] = [];
  const settings: Array<Record<string, unknown>> = [];
  // Astro writes each prop as [type, value]; objects hold such pairs, arrays are pairs of pairs.
  const decode = (value: unknown): unknown => {
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'number') {
      const [type, inner] = value as [number, unknown];
      if (type === 0) return decode(inner);
      if (type === 1 && Array.isArray(inner)) return inner.map(decode);
      return inner;
    }
    if (Array.isArray(value)) return value.map(decode);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decode(v)]));
    return value;
  };
  const walk = (value: unknown, parentKey: string) => {
    if (typeof value === 'string') strings.push(value);
    else if (Array.isArray(value)) for (const v of value) walk(v, parentKey);
    else if (value && typeof value === 'object') {
      if (parentKey === 'settings') settings.push(value as Record<string, unknown>);
      for (const [k, v] of Object.entries(value)) {
        keys.add(k);
        walk(v, k);
      }
    }
  };
  const islands = $('astro-island');
  islands.each((_, el) => walk(decode(JSON.parse($(el).attr('props') ?? '{}')), ''));
  return { count: islands.length, keys, strings, settings };
}

function expectNoOwnerData(html: string, secrets: string[]): void {
  for (const secret of secrets) expect(html.includes(secret), `the page holds ${secret}`).toBe(false);
  // Not even encoded in an attribute (Astro escapes '/' and '@' nowhere, but & and " are).
  const decoded = cheerio.load(html).html();
  for (const secret of secrets) expect(decoded.includes(secret), `the page holds ${secret} (decoded)`).toBe(false);
  const props = islandProps(html);
  expect(props.count).toBeGreaterThan(0);
  for (const key of OWNER_KEYS) expect(props.keys.has(key), `island props carry '${key}'`).toBe(false);
  for (const secret of secrets) expect(props.strings.some((s) => s.includes(secret))).toBe(false);
  // The islands get the visitor-facing switches and nothing else.
  expect(props.settings.length).toBeGreaterThan(0);
  for (const s of props.settings) expect(Object.keys(s).sort()).toEqual([...PUBLIC_SITE_SETTING_KEYS].sort());
}

describe('public site pages carry no owner data', () => {
  let app: TTestApp;
  beforeAll(async () => {
    await ensureTemplateBuilt();
    app = await startTestApp();
  }, 180_000);
  afterAll(async () => {
    await app?.close();
  });

  it('a site published with a notification address and a Slack webhook shows neither in its stored HTML or island props', async () => {
    const files = [
      { name: 'one.jpg', type: 'image/jpeg', bytes: await makeJpeg(640, 480, 1) },
      { name: 'two.jpg', type: 'image/jpeg', bytes: await makeJpeg(480, 640, 2) },
      { name: 'brief.pdf', type: 'application/pdf', bytes: makePdf(2) },
      { name: 'notes.txt', type: 'text/plain', bytes: Buffer.from('Second round of edits.\n') },
    ];
    const res = await fetch(`${app.url}/api/upload`, {
      method: 'POST',
      headers: { origin: app.url },
      body: buildUploadForm(files, { settings: JSON.stringify(OWNER_SETTINGS), password: 'harbour-lights-42' }),
    });
    expect(res.status).toBe(201);
    const { slug } = (await res.json()) as { slug: string };
    await app.deps.queue.whenIdle();

    const site = await app.deps.db.selectFrom('projects').selectAll().where('slug', '=', slug).executeTakeFirstOrThrow();
    expect(site.status).toBe('live');
    // The owner side still has them: notifications keep working.
    expect(JSON.parse(site.settings)).toMatchObject({ notificationEmail: NOTIFY, slackWebhook: WEBHOOK });
    const rows = await app.deps.db.selectFrom('files').selectAll().where('project_id', '=', site.id).execute();

    const html = await readStored(app, siteHtmlKey(slug));
    const secrets = [NOTIFY, WEBHOOK, 'hooks.slack.com', site.password_hash!, ...rows.map((r) => r.storage_key), ...rows.map((r) => r.sha256)];
    if (site.anonymous_session_id) secrets.push(site.anonymous_session_id);
    expectNoOwnerData(html, secrets);
    // The notification address is not the footer's contact address either: no 'Get in touch' without a contact email.
    const $ = cheerio.load(html);
    expect($('a[href^="mailto:"]').length).toBe(0);
    expect($('footer').text()).not.toContain('Get in touch');
  }, 120_000);

  it("the wizard's preview of a draft with both secrets shows neither", async () => {
    const res = await fetch(`${app.url}/api/preview`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', origin: app.url },
      body: JSON.stringify({
        title: 'Harbour Lights',
        description: 'Final selects',
        authorName: 'Mira Solberg',
        template: 'universal',
        settings: OWNER_SETTINGS,
        files: [
          { clientId: 'a1', name: 'one.jpg', type: 'image/jpeg', size: 1000, width: 640, height: 480 },
          { clientId: 'a2', name: 'two.jpg', type: 'image/jpeg', size: 1000, width: 480, height: 640 },
          { clientId: 'a3', name: 'brief.pdf', type: 'application/pdf', size: 1000 },
        ],
      }),
    });
    expect(res.status).toBe(200);
    expectNoOwnerData(await res.text(), [NOTIFY, WEBHOOK, 'hooks.slack.com']);
  });

  it('after an upgrade, a page stored with the old render model is rewritten once at start-up without the secrets', async () => {
    // A site as the old code stored it: the notification address copied into its contact info,
    // and a page whose island props held the whole settings object.
    const row = makeSiteRow({
      title: 'Old delivery',
      status: 'live',
      settings: JSON.stringify(OWNER_SETTINGS),
      contact_info: JSON.stringify({ email: NOTIFY, website: '', twitter: '', linkedin: '', github: '' }),
      created_at: Date.now(),
      updated_at: Date.now(),
    });
    const bytes = await makeJpeg(320, 240, 3);
    const file = makeFileRow(row.id, 0, { name: 'old.jpg', size: bytes.length, sha256: 'b'.repeat(64) });
    await app.deps.storage.put(file.storage_key, bytes);
    await createSiteWithFiles(
      app.deps.db,
      row,
      [file].map(({ project_id: _p, ...f }) => f),
    );
    const oldHtml = `<!doctype html><title>Old delivery</title><astro-island props='{"site":[0,{"settings":[0,{"slackWebhook":[0,"${WEBHOOK}"],"notificationEmail":[0,"${NOTIFY}"]}]}]}'></astro-island><a href="mailto:${NOTIFY}">Get in touch</a>`;
    await app.deps.storage.put(siteHtmlKey(row.slug), oldHtml);
    // The upgrade's migration clears the copied address and asks for the one-time rebuild.
    const { up } = await import('../db/migrations/2026_11_24_1800_public_site_pages.ts');
    await up(app.deps.db as unknown as Kysely<unknown>);

    const { runPendingSiteRebuilds } = await import('../builds/pending-site-rebuilds.ts');
    const first = await runPendingSiteRebuilds(app.deps);
    expect(first.queued).toBeGreaterThanOrEqual(1);
    await app.deps.queue.whenIdle();

    const html = await readStored(app, siteHtmlKey(row.slug));
    expect(html).not.toBe(oldHtml);
    expect(html).toContain('Old delivery');
    for (const secret of [NOTIFY, WEBHOOK, 'hooks.slack.com']) expect(html).not.toContain(secret);
    const stored = await app.deps.db.selectFrom('projects').select(['contact_info', 'settings', 'status']).where('id', '=', row.id).executeTakeFirstOrThrow();
    expect(JSON.parse(stored.contact_info)).toMatchObject({ email: '' });
    expect(JSON.parse(stored.settings)).toMatchObject({ notificationEmail: NOTIFY, slackWebhook: WEBHOOK });
    expect(stored.status).toBe('live');

    // Once: a second start-up queues nothing.
    const second = await runPendingSiteRebuilds(app.deps);
    expect(second.queued).toBe(0);
  }, 120_000);
});
