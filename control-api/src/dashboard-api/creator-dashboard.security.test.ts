/**
 * Every creator-dashboard route refuses (IDOR sweep): signed out 401, another creator 404 exactly
 * like an unknown site, the site's anonymous creator cookie without an account 401; the owner 2xx.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../db/ids.ts';
import { browserSignedInAs, createSignedInCreator } from '@dropsite/testkit/control-api/accounts';
import { buildUploadForm } from '@dropsite/testkit/control-api/fixtures';
import { createBrowser, seedSite, type TBrowser, type TSeededSite } from '@dropsite/testkit/control-api/site-fixtures';
import { startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';

interface TRoute {
  name: string;
  method: 'GET' | 'POST';
  path: (site: TSeededSite, commentId: string) => string;
  json?: unknown;
}

const ROUTES: TRoute[] = [
  { name: 'details', method: 'GET', path: (s) => `/api/projects/${s.project.id}/details` },
  { name: 'daily chart', method: 'GET', path: (s) => `/api/projects/${s.project.id}/analytics/daily?days=30` },
  { name: 'daily chart of a file', method: 'GET', path: (s) => `/api/projects/${s.project.id}/analytics/daily?days=7&fileId=${s.files[0]!.id}` },
  { name: 'a file’s older comments', method: 'GET', path: (s) => `/api/projects/${s.project.id}/files/${s.files[0]!.id}/comments` },
  { name: 'activity', method: 'GET', path: (s) => `/api/projects/${s.project.id}/activity` },
  { name: 'engagement export', method: 'GET', path: (s) => `/api/projects/${s.project.id}/engagement.csv` },
  { name: 'creator reply', method: 'POST', path: (s, c) => `/api/projects/${s.project.id}/comments/${c}/replies`, json: { text: 'Thanks!' } },
  { name: 'analytics panel', method: 'GET', path: (s) => `/api/analytics?projectId=${s.project.id}&detailed=true` },
];

describe('creator dashboard access', () => {
  let app: TTestApp;
  let owner: TBrowser;
  let intruder: TBrowser;
  let ownerId: string;
  let intruderId: string;
  let site: TSeededSite;
  let intruderSite: TSeededSite;
  let commentId: string;

  const signedIn = async (email: string): Promise<[TBrowser, string]> => {
    const creator = await createSignedInCreator(app.deps, { email });
    return [browserSignedInAs(app, creator), creator.id];
  };

  beforeAll(async () => {
    app = await startTestApp({ startWorker: false });
    [owner, ownerId] = await signedIn('owner@example.com');
    [intruder, intruderId] = await signedIn('intruder@example.com');
    site = await seedSite(app, { title: 'Owned' });
    intruderSite = await seedSite(app, { title: 'Intruder’s' });
    await app.deps.db.updateTable('projects').set({ owner_creator_id: ownerId, workspace_id: ownerId }).where('id', '=', site.project.id).execute();
    await app.deps.db.updateTable('projects').set({ owner_creator_id: intruderId, workspace_id: intruderId }).where('id', '=', intruderSite.project.id).execute();
    const visitor = createBrowser(app);
    const posted = await visitor.json<{ comment: { id: string } }>('/api/comments', {
      method: 'POST',
      json: { projectId: site.project.id, fileId: site.files[0]!.id, commentText: 'Hello' },
    });
    commentId = posted.body.comment.id;
  });
  afterAll(async () => {
    await app.close();
  });

  /** Status and body (parsed when JSON: the export answers CSV). */
  const call = async (who: TBrowser, route: TRoute, target = site): Promise<{ status: number; body: unknown }> => {
    const res = await who.fetch(route.path(target, commentId), { method: route.method, ...(route.json !== undefined ? { json: route.json } : {}) });
    const text = await res.text();
    return { status: res.status, body: res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(text) : text };
  };

  for (const route of ROUTES) {
    it(`${route.name}: the owner only`, async () => {
      const signedOut = await call(createBrowser(app), route);
      // The panel keeps its one answer for anyone who is not the owner (the anonymous creator's rule).
      if (route.name === 'analytics panel') expect(signedOut.status).toBe(404);
      else expect(signedOut).toMatchObject({ status: 401, body: { success: false, error: 'Authentication required. Please sign in and try again.' } });

      const foreign = await call(intruder, route);
      expect(foreign.status).toBe(404);
      expect(foreign.body).toMatchObject({ success: false });
      const unknown = await call(owner, route, { ...site, project: { ...site.project, id: newId() } });
      expect(unknown.status).toBe(404);
      expect(foreign.body).toEqual(unknown.body);

      expect((await call(owner, route)).status).toBeLessThan(300);
    });
  }

  it('the lists: signed out 401, another creator’s id 404, never another creator’s sites', async () => {
    expect((await createBrowser(app).json('/api/creators/me/projects')).status).toBe(401);
    expect((await createBrowser(app).json(`/api/creators/projects/${ownerId}`)).status).toBe(401);
    expect((await intruder.json(`/api/creators/projects/${ownerId}`)).status).toBe(404);
    const mine = await intruder.json<{ projects: Array<{ id: string }> }>('/api/creators/me/projects');
    expect(mine.body.projects.map((p) => p.id)).toEqual([intruderSite.project.id]);
  });

  it('an anonymous creator’s cookie alone opens nothing here, even for its own unclaimed site', async () => {
    const publisher = createBrowser(app);
    const form = buildUploadForm([{ name: 'x.txt', type: 'text/plain', bytes: new TextEncoder().encode('x') }]);
    expect((await publisher.fetch('/api/upload', { method: 'POST', body: form })).status).toBe(201);
    const row = await app.deps.db.selectFrom('projects').select('id').where('owner_creator_id', 'is', null).where('anonymous_session_id', 'is not', null).executeTakeFirstOrThrow();
    expect((await publisher.json(`/api/projects/${row.id}/details`)).status).toBe(401);
    // Signed in as well, the unclaimed site is still not the account's until it is claimed.
    const [both] = await signedIn('both@example.com');
    for (const [name, value] of publisher.cookies) both.cookies.set(name, value);
    expect((await both.json(`/api/projects/${row.id}/details`)).status).toBe(404);
  });

  it('a reply names a comment of the same site only', async () => {
    const other = await createBrowser(app).json<{ comment: { id: string } }>('/api/comments', {
      method: 'POST',
      json: { projectId: intruderSite.project.id, fileId: intruderSite.files[0]!.id, commentText: 'Elsewhere' },
    });
    const res = await owner.json(`/api/projects/${site.project.id}/comments/${other.body.comment.id}/replies`, { method: 'POST', json: { text: 'Hi' } });
    expect(res.status).toBe(404);
    const rows = await app.deps.db.selectFrom('comments').select('id').where('parent_id', '=', other.body.comment.id).execute();
    expect(rows).toEqual([]);
  });
});
