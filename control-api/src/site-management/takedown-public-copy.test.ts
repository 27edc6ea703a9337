/**
 * A takedown and a restore against the edge's copy of a public site page (edge/public-page.ts), on
 * disk and on S3 (s3rver): the takedown removes the copy before it returns, a restore of a public
 * site copies its kept page back, and a restore of a site that is not public copies nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicSiteHtmlKey, publicSiteKeys } from '@dropsite/shared';
import { buildUploadForm, makeJpeg, postUpload } from '@dropsite/testkit/control-api/fixtures';
import { startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { restoreSite, takeDownSite } from './takedown.ts';

for (const driver of ['disk', 's3'] as const) {
  describe(`a takedown and the edge's copy (${driver})`, () => {
    let app: TTestApp;

    const publish = async (title: string): Promise<string> => {
      const { body } = await postUpload(app.url, buildUploadForm([{ name: 'first.jpg', type: 'image/jpeg', bytes: await makeJpeg(320, 240, 1) }], { title }));
      await app.deps.queue.whenIdle();
      return String(body.slug);
    };
    const copies = async (slug: string) => (await Promise.all(publicSiteKeys(slug).map((key) => app.deps.storage.head(key)))).filter((info) => info !== null).length;

    beforeAll(async () => {
      app = await startTestApp({ config: { edgePublicPages: true }, storageDriver: driver });
    }, 60_000);
    afterAll(() => app?.close());

    it('removes the copy before the takedown returns, and a restore of a public site copies its page back', async () => {
      const slug = await publish('Disputed');
      expect(await copies(slug)).toBe(3);
      const etag = (await app.deps.storage.head(publicSiteHtmlKey(slug)))?.etag;

      expect(await takeDownSite(app.deps, slug, 'Court order')).not.toBeNull();
      expect(await copies(slug)).toBe(0);
      expect((await fetch(`${app.url}/${slug}`)).status).toBe(451);

      expect(await restoreSite(app.deps, slug)).not.toBeNull();
      expect(await copies(slug)).toBe(3);
      expect((await app.deps.storage.head(publicSiteHtmlKey(slug)))?.etag).toBe(etag);
      expect((await fetch(`${app.url}/${slug}`)).status).toBe(200);
    }, 60_000);

    it('copies nothing back for a restored site that has a password', async () => {
      const slug = await publish('Disputed and Locked');
      await takeDownSite(app.deps, slug, 'Court order');
      await app.deps.db.updateTable('projects').set({ password_hash: 'argon2-hash-stand-in' }).where('slug', '=', slug).execute();
      await restoreSite(app.deps, slug);
      expect(await copies(slug)).toBe(0);
    }, 60_000);
  });
}
