/**
 * Every management call refuses (IDOR sweep): signed out 401, another creator 404 exactly like an
 * unknown site, the site's anonymous creator cookie without an account 401; the owner 2xx. An upload
 * refused this way stores no byte.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectUploadsPrefix } from '@dropsite/shared';
import { browserSignedInAs, createSignedInCreator } from '@dropsite/testkit/control-api/accounts';
import { buildUploadForm } from '@dropsite/testkit/control-api/fixtures';
import { createBrowser, seedSite, type TBrowser, type TSeededSite } from '@dropsite/testkit/control-api/site-fixtures';
import { startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { putOnPlan } from '@dropsite/testkit/control-api/billing';

interface TRoute {
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: (site: TSeededSite) => string;
  body?: (site: TSeededSite) => { json: unknown } | { body: FormData };
}

const upload = (field: string) => {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(Buffer.from('new bytes'.repeat(100)))], { type: 'image/jpeg' }), 'x.jpg');
  return { body: form };
};

const ROUTES: TRoute[] = [
  { name: 'settings', method: 'GET', path: (s) => `/api/projects/${s.project.id}/settings` },
  { name: 'build progress', method: 'GET', path: (s) => `/api/projects/${s.project.id}/build` },
  { name: 'edit', method: 'PATCH', path: (s) => `/api/projects/${s.project.id}`, body: () => ({ json: { title: 'Taken over' } }) },
  { name: 'password', method: 'PATCH', path: (s) => `/api/projects/${s.project.id}`, body: () => ({ json: { password: null } }) },
  { name: 'add files', method: 'POST', path: (s) => `/api/projects/${s.project.id}/files`, body: () => upload('files') },
  { name: 'replace a file', method: 'PUT', path: (s) => `/api/projects/${s.project.id}/files/${s.files[0]!.id}`, body: () => upload('file') },
  { name: 'remove a file', method: 'DELETE', path: (s) => `/api/projects/${s.project.id}/files/${s.files[1]!.id}` },
  { name: 'delete the site', method: 'DELETE', path: (s) => `/api/projects/${s.project.id}`, body: (s) => ({ json: { confirmTitle: s.project.title } }) },
];

describe('site management access', () => {
  let app: TTestApp;
  let owner: TBrowser;
  let intruder: TBrowser;
  let ownerId = '';

  const signedIn = async (email: string): Promise<[TBrowser, string]> => {
    const creator = await createSignedInCreator(app.deps, { email });
    return [browserSignedInAs(app, creator), creator.id];
  };

  const ownedSite = async (): Promise<TSeededSite> => {
    const site = await seedSite(app, { title: 'Owned', fileCount: 2 });
    await app.deps.db.updateTable('projects').set({ owner_creator_id: ownerId, workspace_id: ownerId }).where('id', '=', site.project.id).execute();
    return site;
  };

  const call = async (who: TBrowser, route: TRoute, site: TSeededSite) => {
    const res = await who.fetch(route.path(site), { method: route.method, ...(route.body?.(site) ?? {}) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  const storedKeys = async (site: TSeededSite) => {
    const keys: string[] = [];
    for await (const object of app.deps.storage.list(projectUploadsPrefix(site.project.id))) keys.push(object.key);
    return keys.sort();
  };

  beforeAll(async () => {
    app = await startTestApp({ startWorker: false });
    [owner, ownerId] = await signedIn('owner@example.com');
    // The owner keeps many sites with comments on: a plan with unlimited sites and the Pro features.
    await putOnPlan(app.deps, ownerId, 'business_monthly');
    [intruder] = await signedIn('intruder@example.com');
  });
  afterAll(async () => {
    await app.close();
  });

  for (const route of ROUTES) {
    it(`${route.name}: the signed-in owner only`, async () => {
      const site = await ownedSite();
      const before = await storedKeys(site);
      const signedOut = await call(createBrowser(app), route, site);
      expect(signedOut).toMatchObject({ status: 401, body: { success: false, error: 'Authentication required. Please sign in and try again.' } });
      const foreign = await call(intruder, route, site);
      expect(foreign).toMatchObject({ status: 404, body: { success: false, error: 'Project not found' } });
      const unknown = await call(intruder, { ...route, path: (s) => route.path(s).replace(s.project.id, 'p_unknown000000000000') }, site);
      expect(unknown).toEqual(foreign);
      expect(await storedKeys(site)).toEqual(before);
      const row = await app.deps.db.selectFrom('projects').select(['title', 'deleted_at', 'password_hash']).where('id', '=', site.project.id).executeTakeFirstOrThrow();
      expect(row).toEqual({ title: 'Owned', deleted_at: null, password_hash: site.project.password_hash });

      const own = await call(owner, route, site);
      expect(own.status, JSON.stringify(own.body)).toBeLessThan(300);
    });
  }

  it('an anonymous creator cookie of the site is not an account: 401', async () => {
    const session = createBrowser(app);
    const published = await session.json<{ slug: string }>('/api/upload', {
      method: 'POST',
      body: buildUploadForm([
        { name: 'a.jpg', type: 'image/jpeg', bytes: Buffer.from('a'.repeat(200)) },
        { name: 'b.jpg', type: 'image/jpeg', bytes: Buffer.from('b'.repeat(200)) },
      ]),
    });
    expect(published.status).toBe(201);
    const siteRow = await app.deps.db.selectFrom('projects').selectAll().where('slug', '=', published.body.slug).executeTakeFirstOrThrow();
    expect(siteRow.anonymous_session_id).not.toBeNull();
    const files = await app.deps.db.selectFrom('files').selectAll().where('project_id', '=', siteRow.id).orderBy('position').execute();
    const site: TSeededSite = { project: siteRow, files, slug: siteRow.slug, bytes: new Map() };
    for (const route of ROUTES) {
      const res = await call(session, route, site);
      expect(res.status, route.name).toBe(401);
    }
  });

  it('a file id of another site is unknown here', async () => {
    const mine = await ownedSite();
    const other = await seedSite(app, { title: 'Other' });
    const res = await owner.fetch(`/api/projects/${mine.project.id}/files/${other.files[0]!.id}`, { method: 'DELETE' });
    expect(res.status).toBe(404);
    expect(await app.deps.db.selectFrom('files').select('id').where('id', '=', other.files[0]!.id).executeTakeFirst()).toBeDefined();
  });
});
