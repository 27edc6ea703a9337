/**
 * Every creator route checks the caller's role through the one permission map: the routes are read
 * from the built app's router stack, and each must be either in CREATOR_ROUTES (its permission and
 * what it acts on) or in NOT_WORKSPACE_ROUTES (a visitor's, an anonymous publisher's, or the account's
 * own, with why), so a route added without a declared permission fails here. Then every creator route
 * is called as the workspace's owner, admin, editor and viewer and as the owner of another workspace,
 * and answers what WORKSPACE_PERMISSIONS implies: 404 to the outsider, 403 to a role the map refuses,
 * and neither 401, 403 nor 404 to a role it allows. On SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { roleAllows, WORKSPACE_ROLES, ZWorkspaceSummarySchema, type TWorkspacePermission, type TWorkspaceRole } from '@dropsite/shared';
import type { Express } from 'express';
import { browserSignedInAs, createSignedInCreator, type TTestCreator } from '@dropsite/testkit/control-api/accounts';
import { createBrowser, seedSite, type TBrowser } from '@dropsite/testkit/control-api/site-fixtures';
import { isDialectAvailable, TEST_DIALECTS, testAppDatabase } from '@dropsite/testkit/control-api/test-database';
import { createFakeClock, startTestApp, UNREACHED_RATE_LIMITS, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { listApiRoutes } from './route-registry.ts';

type TCaller = TWorkspaceRole | 'outsider';

interface TContext {
  workspaceId: string;
  siteId: string;
  siteTitle: string;
  workspaceName: string;
  commentId: string;
  /** A member who is none of the callers: the member routes act on them. */
  memberId: string;
  /** A file of the site for each caller (a removal takes one, so each allowed caller removes its own). */
  fileOf(caller: TCaller): string;
}

interface TCreatorRoute {
  /** The permission the route needs, or 'member' for any member of the workspace. */
  permission: TWorkspacePermission | 'member';
  /** What it acts on: a site (by id), a workspace (by id), or the caller's current workspace. */
  scope: 'site' | 'workspace' | 'current';
  body?: (ctx: TContext) => unknown;
  query?: (ctx: TContext) => string;
  /** A publish call: signed out it publishes anonymously (no 401). */
  anonymousToo?: boolean;
  /** Its target below the workspace (an invitation, a member) is a placeholder: an allowed caller may find it missing (404). */
  placeholderTarget?: boolean;
}

/** The creator routes and the permission each needs (WORKSPACE_PERMISSIONS names them all). */
const CREATOR_ROUTES: Record<string, TCreatorRoute> = {
  // A site's dashboard reads (spec 7.3-7.4).
  'GET /api/projects/:id/details': { permission: 'sites.read', scope: 'site' },
  'GET /api/projects/:id/files/:fileId/comments': { permission: 'sites.read', scope: 'site' },
  'GET /api/projects/:id/analytics/daily': { permission: 'sites.read', scope: 'site' },
  'GET /api/projects/:id/activity': { permission: 'sites.read', scope: 'site' },
  'GET /api/projects/:id/files/:fileId/thumbnail': { permission: 'sites.read', scope: 'site' },
  'GET /api/projects/:id/settings': { permission: 'sites.read', scope: 'site' },
  'GET /api/projects/:id/build': { permission: 'sites.read', scope: 'site' },
  'GET /api/analytics': { permission: 'sites.read', scope: 'site', query: (ctx) => `?projectId=${ctx.siteId}` },
  'GET /api/projects/:id/engagement.csv': { permission: 'sites.export', scope: 'site' },
  'POST /api/projects/:id/comments/:commentId/replies': { permission: 'comments.reply', scope: 'site', body: () => ({ text: 'Thank you' }) },
  // Managing a site: an allowed caller meets the body's own checks (400), never the role's.
  'PATCH /api/projects/:id': { permission: 'sites.edit', scope: 'site', body: () => ({}) },
  'POST /api/projects/:id/files': { permission: 'sites.edit', scope: 'site' },
  'PUT /api/projects/:id/files/:fileId': { permission: 'sites.edit', scope: 'site' },
  'DELETE /api/projects/:id/files/:fileId': { permission: 'sites.edit', scope: 'site' },
  'DELETE /api/projects/:id': { permission: 'sites.delete', scope: 'site', body: () => ({ confirmTitle: 'not the title' }) },
  'POST /api/sites/:id/transfer': { permission: 'sites.transfer', scope: 'site', body: (ctx) => ({ workspaceId: ctx.workspaceId }) },
  // The workspace itself.
  'PUT /api/workspaces/current': { permission: 'member', scope: 'workspace', body: (ctx) => ({ workspaceId: ctx.workspaceId }) },
  'PATCH /api/workspaces/:id': { permission: 'settings.manage', scope: 'workspace', body: (ctx) => ({ name: ctx.workspaceName }) },
  'DELETE /api/workspaces/:id': { permission: 'workspace.delete', scope: 'workspace', body: () => ({ confirmName: 'not the name' }) },
  'GET /api/workspaces/:id/members': { permission: 'members.read', scope: 'workspace' },
  'POST /api/workspaces/:id/invitations': { permission: 'members.manage', scope: 'workspace', body: () => ({ email: 'not-an-address', role: 'viewer' }) },
  'DELETE /api/workspaces/:id/invitations/:invitationId': { permission: 'members.manage', scope: 'workspace', placeholderTarget: true },
  'PATCH /api/workspaces/:id/members/:creatorId': { permission: 'members.manage', scope: 'workspace', body: () => ({ role: 'not-a-role' }), placeholderTarget: true },
  'DELETE /api/workspaces/:id/members/:creatorId': { permission: 'members.manage', scope: 'workspace', placeholderTarget: true },
  'GET /api/workspaces/:id/audit': { permission: 'audit.read', scope: 'workspace' },
  'GET /api/workspaces/:id/audit.csv': { permission: 'audit.read', scope: 'workspace' },
  // The current workspace: its sites, plan and usage, and what is published or claimed into it.
  'GET /api/creators/me/projects': { permission: 'sites.read', scope: 'current' },
  'GET /api/billing/subscription': { permission: 'sites.read', scope: 'current' },
  'GET /api/billing/usage': { permission: 'sites.read', scope: 'current' },
  'POST /api/billing/checkout': { permission: 'billing.manage', scope: 'current', body: () => ({ planId: 'pro', interval: 'monthly' }) },
  'POST /api/billing/portal': { permission: 'billing.manage', scope: 'current' },
  'POST /api/billing/trial': { permission: 'billing.manage', scope: 'current' },
  'POST /api/upload': { permission: 'sites.create', scope: 'current', anonymousToo: true },
  'POST /api/chunked-upload/init': { permission: 'sites.create', scope: 'current', body: () => ({}), anonymousToo: true },
  'POST /api/direct-upload/init': { permission: 'sites.create', scope: 'current', body: () => ({}), anonymousToo: true },
  'POST /api/direct-upload': { permission: 'sites.create', scope: 'current', body: () => ({}), anonymousToo: true },
};

const VISITOR = 'a visitor’s call on a published site (its access is the site’s password and expiry)';
const LINK = 'an emailed link: its signed token is the authority';
const ACCOUNT = 'the signed-in account’s own, in no workspace';
const UPLOAD_SESSION = 'an upload session’s own call: the session (and the publisher who opened it) is the authority';
const PUBLIC = 'public: no account, no workspace';

/** Routes that are not a workspace's, and why. */
const NOT_WORKSPACE_ROUTES: Record<string, string> = {
  'GET /api/health': PUBLIC,
  'POST /api/contact': PUBLIC,
  'POST /api/feedback': PUBLIC,
  'POST /api/sales': PUBLIC,
  'POST /api/newsletter': PUBLIC,
  'POST /api/email-collection': PUBLIC,
  'POST /api/billing/webhook': 'Stripe’s signed events',
  'GET /api/email/confirm': LINK,
  'POST /api/email/confirm': LINK,
  'GET /api/email/unsubscribe': LINK,
  'POST /api/email/unsubscribe': LINK,
  'POST /api/email/resubscribe': LINK,
  'GET /api/newsletter/confirm': LINK,
  'POST /api/newsletter/confirm': LINK,
  'GET /api/newsletter/unsubscribe': LINK,
  'POST /api/newsletter/unsubscribe': LINK,
  'GET /api/invitations/:token': LINK,
  'POST /api/invitations/:token/accept': 'an invitation link, accepted by the signed-in account it was sent to',
  'POST /api/favorites': VISITOR,
  'DELETE /api/favorites': VISITOR,
  'POST /api/approvals': VISITOR,
  'GET /api/comments': VISITOR,
  'POST /api/comments': VISITOR,
  'GET /api/engagement/state': VISITOR,
  'PUT /api/visitor/profile': VISITOR,
  'POST /api/analytics/view': VISITOR,
  'POST /api/analytics/events': VISITOR,
  'GET /api/files/:id': VISITOR,
  'GET /api/files/:id/pdf': VISITOR,
  'GET /api/files/:id/poster': VISITOR,
  'GET /api/files/:id/first-page': VISITOR,
  'POST /api/sites/:slug/unlock': VISITOR,
  'GET /api/sites/:slug/status': VISITOR,
  'GET /api/creators/anonymous/session': 'the anonymous creator’s own session',
  'GET /api/projects/anonymous/:sessionId': 'the anonymous creator’s own sites (its session token)',
  'GET /api/engagement/anonymous/:sessionId': 'the anonymous creator’s own sites (its session token)',
  'GET /api/engagement/anonymous/:sessionId/updates': 'the anonymous creator’s own sites (its session token)',
  'POST /api/upload-chunk/:sessionId/:fileId': UPLOAD_SESSION,
  'POST /api/chunked-upload/complete': UPLOAD_SESSION,
  'POST /api/direct-upload/complete': UPLOAD_SESSION,
  'POST /api/direct-upload/urls': UPLOAD_SESSION,
  'GET /api/upload-session/status': UPLOAD_SESSION,
  'DELETE /api/upload-session/:sessionId': UPLOAD_SESSION,
  'GET /api/direct-upload/status/:slug': UPLOAD_SESSION,
  'POST /api/auth/sign-up': ACCOUNT,
  'POST /api/auth/sign-in': ACCOUNT,
  'POST /api/auth/sign-out': ACCOUNT,
  'POST /api/auth/sign-out-everywhere': ACCOUNT,
  'GET /api/auth/session': ACCOUNT,
  'POST /api/auth/email-link': ACCOUNT,
  'POST /api/auth/email-link/describe': ACCOUNT,
  'POST /api/auth/email-link/consume': ACCOUNT,
  'POST /api/auth/verify-email/request': ACCOUNT,
  'POST /api/auth/verify-email': ACCOUNT,
  'POST /api/auth/email-change/undo': ACCOUNT,
  'POST /api/auth/password-reset/request': ACCOUNT,
  'POST /api/auth/password-reset': ACCOUNT,
  'GET /api/account': ACCOUNT,
  'PATCH /api/account': ACCOUNT,
  'POST /api/account/email': ACCOUNT,
  'DELETE /api/account/email': ACCOUNT,
  'POST /api/account/password': ACCOUNT,
  'DELETE /api/account/sessions/:id': ACCOUNT,
  'DELETE /api/account': ACCOUNT,
  'POST /api/creators/sync': ACCOUNT,
  'GET /api/workspaces': 'the account’s own list of its workspaces',
  'POST /api/workspaces': 'makes a new workspace, its caller the owner',
  'GET /api/creators/projects/:creatorId': 'the account’s own path of the sites list (any other id is 404); the list is the current workspace’s, as /me/projects',
  'GET /api/creators/me/updates': 'the bell: engagement on the current workspace’s sites (every role may read them)',
  // Claiming checks sites.create in the current workspace when there is an anonymous session to claim (accounts tests).
  'POST /api/creators/claim': 'claims this browser’s anonymous sites into the current workspace (sites.create, checked once there is something to claim)',
};

const CALLERS: readonly TCaller[] = ['outsider', ...[...WORKSPACE_ROLES].reverse()];

function isAllowed(caller: TCaller, route: TCreatorRoute): boolean {
  if (caller === 'outsider') return route.scope === 'current' && route.permission !== 'member';
  return route.permission === 'member' || roleAllows(caller, route.permission);
}

function expectedOf(caller: TCaller, route: TCreatorRoute): 'allowed' | 403 | 404 {
  if (isAllowed(caller, route)) return 'allowed';
  return caller === 'outsider' ? 404 : 403;
}

function fill(pattern: string, caller: TCaller, ctx: TContext): string {
  const idOf = pattern.startsWith('/api/workspaces/') ? ctx.workspaceId : ctx.siteId;
  return pattern
    .replace(':id', idOf)
    .replace(':fileId', ctx.fileOf(caller))
    .replace(':commentId', ctx.commentId)
    .replace(':creatorId', ctx.memberId)
    .replace(':invitationId', 'aaaaaaaaaaaaaaaaaaaaaaaaaa');
}

for (const dialect of TEST_DIALECTS) {
  const available = await isDialectAvailable(dialect);
  describe.skipIf(!available)(`every creator route checks the caller's role (${dialect})`, () => {
    const clock = createFakeClock();
    let app: TTestApp;
    let database: ReturnType<typeof testAppDatabase>;
    let ctx: TContext;
    const browsers = new Map<TCaller, TBrowser>();

    beforeAll(async () => {
      database = testAppDatabase(dialect, 'route_roles');
      app = await startTestApp({ clock, startWorker: false, config: { ...database.config, rateLimits: UNREACHED_RATE_LIMITS } });
      const people = new Map<TCaller, TTestCreator>();
      for (const caller of CALLERS) people.set(caller, await createSignedInCreator(app.deps, { email: `${caller}@example.com`, name: caller }));
      for (const [caller, person] of people) browsers.set(caller, browserSignedInAs(app, person));
      const owner = browsers.get('owner')!;
      const made = await owner.json('/api/workspaces', { method: 'POST', json: { name: 'Studio' } });
      expect(made.status).toBe(201);
      const workspace = ZWorkspaceSummarySchema.parse(made.body);
      const now = clock.now();
      for (const role of ['admin', 'editor', 'viewer'] as const) {
        await app.deps.db
          .insertInto('workspace_members')
          .values({ workspace_id: workspace.id, creator_id: people.get(role)!.id, role, invited_by: people.get('owner')!.id, created_at: now })
          .execute();
      }
      // The member the member routes act on: never one of the callers, so no call takes a caller out of the workspace.
      const bystander = await createSignedInCreator(app.deps, { email: 'bystander@example.com', name: 'bystander' });
      await app.deps.db
        .insertInto('workspace_members')
        .values({ workspace_id: workspace.id, creator_id: bystander.id, role: 'viewer', invited_by: people.get('owner')!.id, created_at: now })
        .execute();
      // Every member's dashboard shows the team workspace; the outsider's shows their own.
      for (const caller of CALLERS) {
        if (caller === 'outsider') continue;
        expect((await browsers.get(caller)!.json('/api/workspaces/current', { method: 'PUT', json: { workspaceId: workspace.id } })).status).toBe(200);
      }
      const site = await seedSite(app, { fileCount: CALLERS.length + 1, title: 'Team site' });
      await app.deps.db
        .updateTable('projects')
        .set({ workspace_id: workspace.id, owner_creator_id: people.get('owner')!.id })
        .where('id', '=', site.project.id)
        .execute();
      const commentId = `c${site.project.id}`.slice(0, 26);
      await app.deps.db
        .insertInto('comments')
        .values({
          id: commentId,
          project_id: site.project.id,
          file_id: site.files[0]!.id,
          visitor_id: 'visitor',
          user_name: 'Ada',
          created_at: now,
          file_version: null,
          parent_id: null,
          body: 'Lovely',
          creator_id: null,
        })
        .execute();
      ctx = {
        workspaceId: workspace.id,
        workspaceName: workspace.name,
        siteId: site.project.id,
        siteTitle: site.project.title,
        commentId,
        memberId: bystander.id,
        fileOf: (caller) => site.files[CALLERS.indexOf(caller)]!.id,
      };
    });
    afterAll(async () => {
      await app?.close();
      await database?.drop();
    });

    it('knows every API route of the app: each is a creator route with its permission, or named as not a workspace’s', () => {
      const routes = listApiRoutes(app.server.listeners('request')[0] as Express);
      expect(routes.length).toBeGreaterThan(50);
      const unknown = routes.map((r) => `${r.method} ${r.path}`).filter((key) => !(key in CREATOR_ROUTES) && !(key in NOT_WORKSPACE_ROUTES));
      expect(unknown).toEqual([]);
      // Nothing is both.
      expect(Object.keys(CREATOR_ROUTES).filter((key) => key in NOT_WORKSPACE_ROUTES)).toEqual([]);
    });

    it('answers each creator route as the permission map says: 404 to an outsider, 403 to a role it refuses, the route’s own answer to one it allows', async () => {
      const present = new Set(listApiRoutes(app.server.listeners('request')[0] as Express).map((r) => `${r.method} ${r.path}`));
      const wrong: string[] = [];
      let checked = 0;
      for (const [key, route] of Object.entries(CREATOR_ROUTES)) {
        if (!present.has(key)) continue;
        const [method, pattern] = key.split(' ') as [string, string];
        for (const caller of CALLERS) {
          // The outsider's current workspace is their own: what a current-workspace route does there is theirs to do.
          if (caller === 'outsider' && route.scope === 'current') continue;
          const url = fill(pattern, caller, ctx) + (route.query?.(ctx) ?? '');
          const body = route.body?.(ctx);
          const res = await browsers.get(caller)!.fetch(url, { method, ...(body !== undefined ? { json: body } : {}) });
          await res.arrayBuffer();
          const expected = expectedOf(caller, route);
          const refusals = route.placeholderTarget ? [401, 403] : [401, 403, 404];
          const ok = expected === 'allowed' ? !refusals.includes(res.status) : res.status === expected;
          if (!ok) wrong.push(`${key} as ${caller}: ${res.status}, expected ${expected}`);
          checked++;
        }
      }
      expect(wrong).toEqual([]);
      expect(checked).toBeGreaterThan(100);
    });

    it('answers a signed-out caller 401 on every creator route but the publish calls (those publish anonymously)', async () => {
      const present = new Set(listApiRoutes(app.server.listeners('request')[0] as Express).map((r) => `${r.method} ${r.path}`));
      const signedOut = createBrowser(app);
      const wrong: string[] = [];
      for (const [key, route] of Object.entries(CREATOR_ROUTES)) {
        if (!present.has(key) || route.anonymousToo) continue;
        const [method, pattern] = key.split(' ') as [string, string];
        const body = route.body?.(ctx);
        const res = await signedOut.fetch(fill(pattern, 'owner', ctx) + (route.query?.(ctx) ?? ''), { method, ...(body !== undefined ? { json: body } : {}) });
        await res.arrayBuffer();
        // The analytics panel answers a stranger like a missing site, signed in or not.
        const expected = key === 'GET /api/analytics' ? 404 : 401;
        if (res.status !== expected) wrong.push(`${key}: ${res.status}, expected ${expected}`);
      }
      expect(wrong).toEqual([]);
    });
  });
}
