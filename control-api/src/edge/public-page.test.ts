/**
 * The public copy of a site page (public/{slug}/) on disk and on S3 (s3rver): a build of a public
 * site writes it with the headers the API sends in its metadata; every change of access removes it
 * before the API answers (a password, an expiry, deletion, account deletion; takedown is tested beside
 * it) and removing a password or expiry puts it back; a build racing an access change leaves none.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buffer, text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicSiteHtmlKey, publicSiteHtmlVariantKey, publicSiteKeys, publicSitePrefix, siteHtmlKey, type TStoredCoding } from '@dropsite/shared';
import { browserSignedInAs, createSignedInCreator } from '@dropsite/testkit/control-api/accounts';
import { buildUploadForm, makeJpeg, postUpload } from '@dropsite/testkit/control-api/fixtures';
import type { TBrowser } from '@dropsite/testkit/control-api/site-fixtures';
import { startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import type { TEdgeDeps } from './edge.deps.ts';
import { PUBLIC_PAGE_HEADER_METADATA, changeSiteAccess, publishPublicPage, syncPublicPage, withdrawEveryPublicPage } from './public-page.ts';

const CODINGS: Array<[TStoredCoding, string]> = [
  ['br', 'br'],
  ['gzip', 'gzip'],
];

for (const driver of ['disk', 's3'] as const) {
  describe(`the public copy of a site page (${driver})`, () => {
    let app: TTestApp;
    let owner: TBrowser;
    let ownerId = '';

    const publish = async (title: string): Promise<{ projectId: string; slug: string }> => {
      const { body } = await postUpload(app.url, buildUploadForm([{ name: 'first.jpg', type: 'image/jpeg', bytes: await makeJpeg(320, 240, 1) }], { title }));
      const slug = String(body.slug);
      const row = await app.deps.db.selectFrom('projects').select('id').where('slug', '=', slug).executeTakeFirstOrThrow();
      await app.deps.db.updateTable('projects').set({ owner_creator_id: ownerId, workspace_id: ownerId }).where('id', '=', row.id).execute();
      await app.deps.queue.whenIdle();
      return { projectId: row.id, slug };
    };
    const isPublished = async (slug: string) => (await app.deps.storage.head(publicSiteHtmlKey(slug))) !== null;
    const noCopyLeft = async (slug: string) => {
      for (const key of publicSiteKeys(slug)) expect(await app.deps.storage.head(key), key).toBeNull();
    };
    const patch = (siteId: string, json: unknown) => owner.json(`/api/projects/${siteId}`, { method: 'PATCH', json });

    beforeAll(async () => {
      app = await startTestApp({ config: { edgePublicPages: true }, storageDriver: driver });
      const creator = await createSignedInCreator(app.deps, { email: 'owner@example.com' });
      ownerId = creator.id;
      owner = browserSignedInAs(app, creator);
    }, 60_000);
    afterAll(() => app?.close());

    it('copies a public site page and its variants with the headers the API sends, and a rebuild replaces them', async () => {
      const { projectId: siteId, slug } = await publish('Harbour Lights');
      const viaApi = await fetch(`${app.url}/${slug}`, { headers: { 'accept-encoding': 'identity' } });
      expect(viaApi.status).toBe(200);
      const html = await viaApi.text();

      const page = await app.deps.storage.get(publicSiteHtmlKey(slug));
      expect(await text(page.body)).toBe(html);
      expect(page.contentType).toBe('text/html; charset=utf-8');
      expect(page.etag).toBe(viaApi.headers.get('etag')?.replaceAll('"', ''));
      const head = await app.deps.storage.head(publicSiteHtmlKey(slug));
      expect(head?.metadata).toEqual({
        [PUBLIC_PAGE_HEADER_METADATA['Content-Security-Policy']]: viaApi.headers.get('content-security-policy'),
        [PUBLIC_PAGE_HEADER_METADATA['X-Content-Type-Options']]: 'nosniff',
        [PUBLIC_PAGE_HEADER_METADATA['Referrer-Policy']]: viaApi.headers.get('referrer-policy'),
      });
      // Each variant is the API's variant of that coding, with its own tag.
      for (const [coding, header] of CODINGS) {
        const variant = await app.deps.storage.head(publicSiteHtmlVariantKey(slug, coding));
        const api = await fetch(`${app.url}/${slug}`, { headers: { 'accept-encoding': header } });
        await api.arrayBuffer();
        expect(api.headers.get('content-encoding')).toBe(header);
        expect(variant?.etag).toBe(api.headers.get('etag')?.replaceAll('"', ''));
        expect(variant?.metadata).toEqual(head?.metadata);
      }

      const before = (await app.deps.storage.head(publicSiteHtmlKey(slug)))?.etag;
      expect((await patch(siteId, { title: 'Harbour Lights, final' })).status).toBe(200);
      await app.deps.queue.whenIdle();
      const rebuilt = await app.deps.storage.get(publicSiteHtmlKey(slug));
      expect(await text(rebuilt.body)).toContain('Harbour Lights, final');
      expect(rebuilt.etag).not.toBe(before);
    }, 60_000);

    it('removes the copy before a password or an expiry is answered, and a rebuild brings it back when they are removed', async () => {
      const { projectId: siteId, slug } = await publish('Locked Later');
      expect(await isPublished(slug)).toBe(true);

      expect((await patch(siteId, { password: 'open sesame 42' })).status).toBe(200);
      await noCopyLeft(slug);
      await app.deps.queue.whenIdle();
      await noCopyLeft(slug); // the rebuild of a locked site publishes nothing
      expect((await fetch(`${app.url}/${slug}`)).status).toBe(401);

      expect((await patch(siteId, { password: null })).status).toBe(200);
      await app.deps.queue.whenIdle();
      expect(await isPublished(slug)).toBe(true);

      expect((await patch(siteId, { expiresAt: new Date(Date.now() + 86_400_000).toISOString() })).status).toBe(200);
      await noCopyLeft(slug);
      await app.deps.queue.whenIdle();
      await noCopyLeft(slug);
      expect((await fetch(`${app.url}/${slug}`)).status).toBe(200); // the API serves it until the expiry

      expect((await patch(siteId, { expiresAt: null })).status).toBe(200);
      await app.deps.queue.whenIdle();
      expect(await isPublished(slug)).toBe(true);
    }, 60_000);

    it('removes the copy on deletion and account deletion (takedown: site-management/takedown-public-copy.test.ts)', async () => {
      const deleted = await publish('Deleted Soon');
      const res = await owner.json(`/api/projects/${deleted.projectId}`, { method: 'DELETE', json: { confirmTitle: 'Deleted Soon' } });
      expect(res.status).toBeLessThan(300);
      await noCopyLeft(deleted.slug);

      const leaving = await createSignedInCreator(app.deps, { email: 'leaving@example.com', password: 'a long enough secret' });
      const kept = await publish('Leaving With Me');
      await app.deps.db.updateTable('projects').set({ owner_creator_id: leaving.id, workspace_id: leaving.id }).where('id', '=', kept.projectId).execute();
      expect(await isPublished(kept.slug)).toBe(true);
      const gone = await browserSignedInAs(app, leaving).json('/api/account', {
        method: 'DELETE',
        json: { confirmEmail: 'leaving@example.com', password: 'a long enough secret' },
      });
      expect(gone.status, JSON.stringify(gone.body)).toBeLessThan(300);
      await noCopyLeft(kept.slug);
    }, 60_000);

    it('leaves no copy when a password is set while a build writes it', async () => {
      const { projectId: siteId, slug } = await publish('Raced');
      // The password commits (and removes the copy) between the build's first look and its write.
      const storage = app.deps.storage;
      let raced = false;
      const racing = {
        ...storage,
        async put(...args: Parameters<typeof storage.put>) {
          if (!raced && args[0] === publicSiteHtmlKey(slug)) {
            raced = true;
            await app.deps.db.updateTable('projects').set({ password_hash: 'argon2-hash-stand-in' }).where('id', '=', siteId).execute();
            await Promise.all(publicSiteKeys(slug).map((key) => storage.delete(key)));
          }
          return storage.put(...args);
        },
      };
      expect(await syncPublicPage({ ...app.deps, storage: racing }, siteId)).toBe('withdrawn');
      expect(raced).toBe(true);
      await noCopyLeft(slug);
    }, 60_000);

    it('leaves the copy of the current version alone when an older build finishes late', async () => {
      const { projectId: siteId, slug } = await publish('Two Versions');
      const current = await app.deps.storage.head(publicSiteHtmlKey(slug));
      const row = await app.deps.db.selectFrom('projects').select('version').where('id', '=', siteId).executeTakeFirstOrThrow();
      const bytes = new TextEncoder().encode('<!doctype html><title>older</title>');
      const older = { bytes, etag: 'older-build' };
      const page = { scriptHashes: [], representations: { identity: older, br: older, gzip: older } };
      expect(await syncPublicPage(app.deps, siteId, { version: row.version - 1, page })).toBe('superseded');
      expect((await app.deps.storage.head(publicSiteHtmlKey(slug)))?.etag).toBe(current?.etag);
    }, 60_000);

    it('publishes nothing from a stored page without its script hashes, nor when the edge copies are off', async () => {
      const { projectId: siteId, slug } = await publish('Old Page');
      // As a page stored before its script hashes were kept with it: the same bytes and tag, no metadata.
      const stored = await app.deps.storage.get(siteHtmlKey(slug));
      await app.deps.storage.put(siteHtmlKey(slug), await buffer(stored.body), { contentType: 'text/html; charset=utf-8', etag: stored.etag });
      expect(await syncPublicPage(app.deps, siteId)).toBe('withdrawn');
      await noCopyLeft(slug);

      // A page with more inline scripts than its CSP can carry in metadata stays with the API.
      const crowded = await publish('Many Scripts');
      const hash = `sha256-${'A'.repeat(43)}=`;
      const bytes = new TextEncoder().encode('<!doctype html><title>x</title>');
      const representation = { bytes, etag: 'crowded-page' };
      const page = { scriptHashes: Array.from({ length: 32 }, () => hash), representations: { identity: representation, br: representation, gzip: representation } };
      expect(await publishPublicPage(app.deps, crowded.slug, page)).toBe(false);
      await noCopyLeft(crowded.slug);
      expect((await fetch(`${app.url}/${crowded.slug}`)).status).toBe(200);

      // With the edge off, a build touches no copy: the builder's start removed every one (below).
      const other = await publish('Edge Off');
      expect(await isPublished(other.slug)).toBe(true);
      const calls: string[] = [];
      const watched = new Proxy(app.deps.storage, {
        get: (target, name, receiver) => {
          const value: unknown = Reflect.get(target, name, receiver);
          if (typeof value !== 'function') return value;
          return (...args: unknown[]) => {
            calls.push(String(name));
            return value.apply(target, args);
          };
        },
      });
      expect(await syncPublicPage({ ...app.deps, storage: watched, config: { ...app.deps.config, edgePublicPages: false } }, other.projectId)).toBe('withdrawn');
      expect(calls).toEqual([]);
      expect(await withdrawEveryPublicPage(app.deps.storage)).toBeGreaterThan(0);
      await noCopyLeft(other.slug);
    }, 60_000);
  });
}

describe('an access change with an edge that keeps pages', () => {
  it('answers only once what the edge may have kept has run out (its cache time, counted in whole seconds, and a margin)', async () => {
    const deleted: string[] = [];
    let changedAt = 0;
    const storage = {
      deletePrefix: async (prefix: string) => {
        deleted.push(prefix);
        return 0;
      },
    };
    const started = Date.now();
    const config = { edgeCacheMs: 100 } as TEdgeDeps['config'];
    const result = await changeSiteAccess({ storage: storage as unknown as TEdgeDeps['storage'], config }, ['harbour-lights'], async () => {
      changedAt = Date.now();
      return 'changed';
    });
    expect(result).toBe('changed');
    // Removed before and after the change.
    expect(deleted).toEqual([publicSitePrefix('harbour-lights'), publicSitePrefix('harbour-lights')]);
    expect(changedAt).toBeGreaterThanOrEqual(started);
    expect(Date.now() - changedAt).toBeGreaterThanOrEqual(1_300);

    // With no edge cache it waits for no timer: it answers before the event loop's next turn.
    const quick = changeSiteAccess(
      { storage: storage as unknown as TEdgeDeps['storage'], config: { edgeCacheMs: 0 } as TEdgeDeps['config'] },
      ['harbour-lights'],
      async () => {},
    ).then(() => 'answered');
    const nextTurn = new Promise((resolve) => setImmediate(() => resolve('waited')));
    expect(await Promise.race([quick, nextTurn])).toBe('answered');
  });
});

describe('a builder starting without an edge', () => {
  it('removes the public copies written while the edge was on, and leaves the pages the API serves', async () => {
    const root = await mkdtemp(path.join(os.tmpdir(), 'dropsite-edge-off-'));
    const dataDir = path.join(root, 'data');
    let app = await startTestApp({ dataDir, config: { edgePublicPages: true } });
    try {
      const { body } = await postUpload(app.url, buildUploadForm([{ name: 'first.jpg', type: 'image/jpeg', bytes: await makeJpeg(320, 240, 1) }], { title: 'Was Public' }));
      await app.deps.queue.whenIdle();
      const slug = String(body.slug);
      expect(await app.deps.storage.head(publicSiteHtmlKey(slug))).not.toBeNull();
      await app.close();

      app = await startTestApp({ dataDir, config: { edgePublicPages: false } });
      for (const key of publicSiteKeys(slug)) expect(await app.deps.storage.head(key), key).toBeNull();
      expect(await app.deps.storage.head(siteHtmlKey(slug))).not.toBeNull();
      expect((await fetch(`${app.url}/${slug}`)).status).toBe(200);
    } finally {
      await app.close();
      await rm(root, { recursive: true, force: true });
    }
  }, 60_000);
});
