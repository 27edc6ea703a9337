/**
 * Managing a published site on real engines (the builder, the queue, disk storage): each edit,
 * addition, replacement and removal is rebuilt and seen on /{slug}; deletion answers 410 at once (its
 * page says the site was removed; its files answer 404) and
 * the sweeper removes the bytes; a takedown answers 451 and a restore serves the site again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteHtmlKey } from '@dropsite/shared';
import { isDialectAvailable, TEST_DIALECTS, testAppDatabase } from '@dropsite/testkit/control-api/test-database';
import { browserSignedInAs, createSignedInCreator } from '@dropsite/testkit/control-api/accounts';
import { buildUploadForm, makeJpeg, postUpload } from '@dropsite/testkit/control-api/fixtures';
import { createBrowser, type TBrowser } from '@dropsite/testkit/control-api/site-fixtures';
import { startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { putOnPlan } from '@dropsite/testkit/control-api/billing';
import { restoreSite, takeDownSite } from './takedown.ts';

interface TManaged {
  id: string;
  title: string;
  hasPassword: boolean;
  expiresAt: string | null;
  settings: { notificationEmail: string; enableComments: boolean };
  contactInfo: { email: string; website: string };
  files: Array<{ id: string; name: string; version: number; size: number }>;
  build: { version: number; state: string } | null;
}

describe.each(TEST_DIALECTS)('managing a published site (%s)', async (dialect) => {
  const available = await isDialectAvailable(dialect);
  const database = testAppDatabase(dialect, 'manage');
  let app: TTestApp;
  let owner: TBrowser;
  let siteId = '';
  let slug = '';

  const publish = async (title: string): Promise<{ projectId: string; slug: string }> => {
    const { body } = await postUpload(app.url, buildUploadForm([{ name: 'first.jpg', type: 'image/jpeg', bytes: await makeJpeg(320, 240, 1) }], { title }));
    const s = String(body.slug);
    const row = await app.deps.db.selectFrom('projects').select('id').where('slug', '=', s).executeTakeFirstOrThrow();
    await app.deps.db.updateTable('projects').set({ owner_creator_id: ownerId, workspace_id: ownerId }).where('id', '=', row.id).execute();
    await app.deps.queue.whenIdle();
    return { projectId: row.id, slug: s };
  };
  let ownerId = '';

  const page = async (path = `/${slug}`) => {
    const res = await fetch(`${app.url}${path}`);
    return { status: res.status, html: await res.text() };
  };
  const settings = async () => (await owner.json<{ project: TManaged }>(`/api/projects/${siteId}/settings`)).body.project;
  const patch = async (json: unknown) => owner.json<{ success: boolean; project: TManaged; error?: string }>(`/api/projects/${siteId}`, { method: 'PATCH', json });
  const filesForm = (name: string, bytes: Uint8Array, field = 'files') => {
    const form = new FormData();
    form.append(field, new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), name);
    return form;
  };

  beforeAll(async () => {
    if (!available) return;
    app = await startTestApp({ config: database.config });
    const creator = await createSignedInCreator(app.deps, { email: 'owner@example.com' });
    ownerId = creator.id;
    // The owner turns comments and notifications on: Pro features.
    await putOnPlan(app.deps, ownerId, 'pro_monthly');
    owner = browserSignedInAs(app, creator);
    ({ projectId: siteId, slug } = await publish('Autumn Wedding'));
  });
  afterAll(async () => {
    if (!available) return;
    await app.close();
    await database.drop();
  });

  it.skipIf(!available)('edits the texts, theme and contact links; the rebuilt site shows them and never the notification address', async () => {
    const before = await settings();
    const res = await patch({
      title: 'Winter Wedding',
      description: 'The best of the day',
      authorName: 'Ada Quill',
      theme: 'nature-dark',
      heroLayout: 'split',
      template: 'photo-gallery',
      settings: { enableComments: true, enableNotifications: true, notificationEmail: 'private-inbox@example.com' },
      contactInfo: { email: 'hello@example.com', website: 'example.org' },
    });
    expect(res.status).toBe(200);
    expect(res.body.project).toMatchObject({ title: 'Winter Wedding', settings: { enableComments: true, notificationEmail: 'private-inbox@example.com' } });
    expect(res.body.project.contactInfo).toMatchObject({ email: 'hello@example.com', website: 'https://example.org/' });
    expect(res.body.project.build?.version).toBeGreaterThan(before.build?.version ?? 0);
    await app.deps.queue.whenIdle();
    expect((await settings()).build).toMatchObject({ state: 'succeeded' });
    const { status, html } = await page();
    expect(status).toBe(200);
    expect(html).toContain('Winter Wedding');
    expect(html).toContain('Ada Quill');
    expect(html).toContain('data-theme="nature-dark"');
    expect(html).toContain('data-hero-layout="split"');
    expect(html).toContain('hello@example.com');
    expect(html).not.toContain('private-inbox@example.com');
    const row = await app.deps.db.selectFrom('projects').select(['slug', 'title']).where('id', '=', siteId).executeTakeFirstOrThrow();
    expect(row).toEqual({ slug, title: 'Winter Wedding' });
  });

  it.skipIf(!available)(
    "changes the look: style, a colour mode that follows the visitor, the visitors' toggle; the older theme still names a style and a pinned mode",
    async () => {
      const res = await patch({ style: 'creative', colorMode: 'auto', visitorModeToggle: true, heroLayout: 'featured' });
      expect(res.status).toBe(200);
      expect(res.body.project).toMatchObject({ style: 'creative', colorMode: 'auto', heroLayout: 'featured', visitorModeToggle: true, theme: 'creative-light' });
      await app.deps.queue.whenIdle();
      const followed = (await page()).html;
      expect(followed).toContain('data-style="creative"');
      expect(followed).toContain('data-color-mode="auto"');
      expect(/<html[^>]*>/.exec(followed)?.[0]).not.toContain('data-theme=');
      // The button itself (the page's script names its selector on every site).
      expect(followed).toMatch(/<button[^>]*data-mode-toggle/);

      const older = await patch({ theme: 'elegant-dark' });
      expect(older.body.project).toMatchObject({ style: 'elegant', colorMode: 'dark', theme: 'elegant-dark', visitorModeToggle: true, heroLayout: 'featured' });
      const off = await patch({ visitorModeToggle: false, heroLayout: null });
      expect(off.body.project).toMatchObject({ style: 'elegant', colorMode: 'dark', visitorModeToggle: false, heroLayout: 'minimal' });
      await app.deps.queue.whenIdle();
      // The newest build's page: pinned dark, no toggle.
      await expect.poll(async () => /<button[^>]*data-mode-toggle/.test((await page()).html)).toBe(false);
      expect(/<html[^>]*>/.exec((await page()).html)?.[0]).toContain('data-theme="elegant-dark"');
      expect((await patch({ colorMode: 'sepia' })).status).toBe(400);
    },
  );

  it.skipIf(!available)('refuses what publishing refuses: an empty title, an unknown theme, a short password, an expiry in the past', async () => {
    for (const body of [
      { title: '  ' },
      { theme: 'neon-light' },
      { heroLayout: 'sideways' },
      { password: 'short' },
      { expiresAt: new Date(Date.now() - 60_000).toISOString() },
      { slug: 'mine' },
    ]) {
      const res = await patch(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await settings()).title).toBe('Winter Wedding');
  });

  it.skipIf(!available)('sets, changes and removes the password; a change locks out a visitor who had unlocked it', async () => {
    expect((await patch({ password: 'first-secret' })).body.project.hasPassword).toBe(true);
    await app.deps.queue.whenIdle();
    expect((await page()).status).toBe(401);
    const visitor = createBrowser(app);
    const unlocked = await visitor.json(`/api/sites/${slug}/unlock`, { method: 'POST', json: { password: 'first-secret' } });
    expect(unlocked.status).toBe(200);
    expect((await visitor.fetch(`/${slug}`)).status).toBe(200);

    await patch({ password: 'second-secret' });
    expect((await visitor.fetch(`/${slug}`)).status).toBe(401);
    expect((await visitor.json(`/api/sites/${slug}/unlock`, { method: 'POST', json: { password: 'first-secret' } })).status).not.toBe(200);

    expect((await patch({ password: null })).body.project.hasPassword).toBe(false);
    expect((await page()).status).toBe(200);
  });

  it.skipIf(!available)('sets and removes the expiry', async () => {
    const at = new Date(Date.now() + 3 * 86_400_000).toISOString();
    expect((await patch({ expiresAt: at })).body.project.expiresAt).toBe(at);
    expect((await patch({ expiresAt: null })).body.project.expiresAt).toBeNull();
  });

  it.skipIf(!available)('adds a file, replaces it with its engagement kept and marked by version, and removes it; the link stays', async () => {
    const added = await owner.json<{ project: TManaged }>(`/api/projects/${siteId}/files`, { method: 'POST', body: filesForm('second.jpg', await makeJpeg(200, 200, 2)) });
    expect(added.status).toBe(201);
    expect(added.body.project.files.map((f) => f.name)).toEqual(['first.jpg', 'second.jpg']);
    await app.deps.queue.whenIdle();
    expect((await page()).html).toContain('second.jpg');

    const second = added.body.project.files[1]!;
    await patch({ settings: { enableFavorites: true } });
    const visitor = createBrowser(app);
    expect((await visitor.json('/api/favorites', { method: 'POST', json: { projectId: siteId, fileId: second.id } })).status).toBeLessThan(300);

    const replacement = await makeJpeg(260, 180, 3);
    const replaced = await owner.json<{ project: TManaged }>(`/api/projects/${siteId}/files/${second.id}`, {
      method: 'PUT',
      body: filesForm('second-v2.jpg', replacement, 'file'),
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.project.files[1]).toMatchObject({ id: second.id, name: 'second-v2.jpg', version: 2, size: replacement.byteLength });
    const favourite = await app.deps.db.selectFrom('favorites').select('file_version').where('file_id', '=', second.id).executeTakeFirstOrThrow();
    expect(favourite.file_version).toBe(1);
    await app.deps.queue.whenIdle();
    const rebuilt = (await page()).html;
    expect(rebuilt).toContain('second-v2.jpg');
    // Its URLs name the version, so the year-long cache of public file answers never serves the old bytes.
    expect(rebuilt).toMatch(new RegExp(`/api/files/${second.id}\\?mode=download(&amp;|&)v=2`));
    expect(rebuilt).not.toMatch(new RegExp(`/api/files/${second.id}\\?mode=download"`));
    const download = await fetch(`${app.url}/api/files/${second.id}?mode=download`);
    expect(Buffer.from(await download.arrayBuffer()).equals(Buffer.from(replacement))).toBe(true);

    const removed = await owner.json<{ project: TManaged }>(`/api/projects/${siteId}/files/${second.id}`, { method: 'DELETE' });
    expect(removed.body.project.files.map((f) => f.name)).toEqual(['first.jpg']);
    await app.deps.queue.whenIdle();
    expect((await page()).html).not.toContain('second-v2.jpg');
    expect((await fetch(`${app.url}/api/files/${second.id}?mode=download`)).status).toBe(404);

    const last = await owner.json<{ error: string }>(`/api/projects/${siteId}/files/${removed.body.project.files[0]!.id}`, { method: 'DELETE' });
    expect(last.status).toBe(400);
    expect(last.body.error).toContain('at least one file');
  });

  it.skipIf(!available)('deletes the site once its title is typed: its page says it was removed (410), 404 everywhere else, bytes removed by the sweeper', async () => {
    const site = await publish('Short-lived');
    const files = await app.deps.db.selectFrom('files').select(['id', 'storage_key']).where('project_id', '=', site.projectId).execute();
    const wrong = await owner.json(`/api/projects/${site.projectId}`, { method: 'DELETE', json: { confirmTitle: 'Something else' } });
    expect(wrong.status).toBe(400);
    expect((await page(`/${site.slug}`)).status).toBe(200);

    // The title typed as a person types it: another dash, extra spaces.
    const res = await owner.json(`/api/projects/${site.projectId}`, { method: 'DELETE', json: { confirmTitle: ' Short–lived ' } });
    expect(res.status).toBe(200);
    const removed = await page(`/${site.slug}`);
    expect(removed.status).toBe(410);
    expect(removed.html).toContain('This site was removed');
    expect((await fetch(`${app.url}/api/files/${files[0]!.id}?mode=download`)).status).toBe(404);
    expect((await owner.json(`/api/projects/${site.projectId}/settings`)).status).toBe(404);
    await expect.poll(async () => app.deps.db.selectFrom('projects').select('id').where('id', '=', site.projectId).executeTakeFirst(), { timeout: 5000 }).toBeUndefined();
    // Once its record is gone, the link still says the site was removed, and nothing of it.
    const later = await page(`/${site.slug}`);
    expect(later.status).toBe(410);
    expect(later.html).toContain('This site was removed');
    expect(later.html).not.toContain('Short-lived');
    await expect(app.deps.storage.get(files[0]!.storage_key)).rejects.toThrow();
    await expect(app.deps.storage.get(siteHtmlKey(site.slug))).rejects.toThrow();
  });

  it.skipIf(!available)('takes a site down (451, files unreachable, reason recorded) and restores it', async () => {
    const site = await publish('Disputed');
    const file = await app.deps.db.selectFrom('files').select('id').where('project_id', '=', site.projectId).executeTakeFirstOrThrow();
    expect(await takeDownSite(app.deps, site.slug, 'Copyright notice #42')).toEqual({ id: site.projectId });
    const down = await page(`/${site.slug}`);
    expect(down.status).toBe(451);
    expect(down.html).toContain('taken down');
    expect(down.html).not.toContain('Copyright notice');
    // Nothing of the site itself: its title stays with the operator too.
    expect(down.html).not.toContain('Disputed');
    expect((await fetch(`${app.url}/api/files/${file.id}?mode=download`)).status).toBe(404);
    expect((await fetch(`${app.url}/api/comments?projectId=${site.projectId}&fileId=${file.id}`)).status).toBe(404);
    const row = await app.deps.db.selectFrom('projects').select(['taken_down_at', 'takedown_reason']).where('id', '=', site.projectId).executeTakeFirstOrThrow();
    expect(row.takedown_reason).toBe('Copyright notice #42');
    expect(row.taken_down_at).toBeTypeOf('number');
    expect((await owner.json(`/api/projects/${site.projectId}`, { method: 'PATCH', json: { title: 'Back' } })).status).toBe(404);
    expect(await takeDownSite(app.deps, site.slug, 'again')).toBeNull();

    expect(await restoreSite(app.deps, site.slug)).toEqual({ id: site.projectId });
    expect((await page(`/${site.slug}`)).status).toBe(200);
    expect((await fetch(`${app.url}/api/files/${file.id}?mode=download`)).status).toBe(200);
    expect(await restoreSite(app.deps, site.slug)).toBeNull();
    expect(await restoreSite(app.deps, slug)).toBeNull();
  });
});
