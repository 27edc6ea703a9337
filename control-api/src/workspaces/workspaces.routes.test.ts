/**
 * Workspaces own sites, the plan and usage: every account has its personal workspace, a team workspace
 * is made, switched to, renamed and deleted with everything it owns; publishing goes into the current
 * workspace and the list says who published; a site moves between workspaces; Free's limits count per
 * person across their Free workspaces; the audit log records the changes. On SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLANS, ZCreatorProjectsResponseSchema, ZUsageResponseSchema, ZWorkspaceListSchema, ZWorkspaceSummarySchema } from '@dropsite/shared';
import { browserSignedInAs, createSignedInCreator, type TTestCreator } from '@dropsite/testkit/control-api/accounts';
import { buildUploadForm } from '@dropsite/testkit/control-api/fixtures';
import { createBrowser, seedSite, type TBrowser } from '@dropsite/testkit/control-api/site-fixtures';
import { isDialectAvailable, TEST_DIALECTS, testAppDatabase } from '@dropsite/testkit/control-api/test-database';
import { createFakeClock, startTestApp, UNREACHED_RATE_LIMITS, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { CONFIRM_WORKSPACE_NAME_MISMATCH, PAID_WORKSPACE_UNDELETABLE, PERSONAL_WORKSPACE_UNDELETABLE } from './workspaces.service.ts';

const PHOTO = { name: 'photo.jpg', type: 'image/jpeg', bytes: new Uint8Array(2048).fill(7) };

describe.each(TEST_DIALECTS)('workspaces own sites, the plan and usage (%s)', async (dialect) => {
  const available = await isDialectAvailable(dialect);
  const clock = createFakeClock();
  let app: TTestApp;
  let database: ReturnType<typeof testAppDatabase>;

  beforeAll(async () => {
    if (!available) return;
    database = testAppDatabase(dialect, 'workspaces');
    app = await startTestApp({ clock, startWorker: false, config: { ...database.config, rateLimits: UNREACHED_RATE_LIMITS } });
  });
  afterAll(async () => {
    if (!available) return;
    await app.close();
    await database.drop();
  });

  async function signedIn(email: string, name?: string): Promise<{ creator: TTestCreator; browser: TBrowser }> {
    const creator = await createSignedInCreator(app.deps, { email, ...(name ? { name } : {}) });
    return { creator, browser: browserSignedInAs(app, creator) };
  }

  async function makeWorkspace(browser: TBrowser, name: string): Promise<string> {
    const res = await browser.json('/api/workspaces', { method: 'POST', json: { name } });
    expect(res.status).toBe(201);
    return ZWorkspaceSummarySchema.parse(res.body).id;
  }

  async function addMember(workspaceId: string, creatorId: string, role: 'admin' | 'editor' | 'viewer'): Promise<void> {
    await app.deps.db.insertInto('workspace_members').values({ workspace_id: workspaceId, creator_id: creatorId, role, invited_by: null, created_at: clock.now() }).execute();
  }

  async function switchTo(browser: TBrowser, workspaceId: string): Promise<void> {
    const res = await browser.json('/api/workspaces/current', { method: 'PUT', json: { workspaceId } });
    expect(res.status).toBe(200);
    expect(ZWorkspaceListSchema.parse(res.body).currentWorkspaceId).toBe(workspaceId);
  }

  async function publish(browser: TBrowser, title: string): Promise<{ status: number; id: string }> {
    const res = await browser.fetch('/api/upload', { method: 'POST', body: buildUploadForm([PHOTO], { title }) });
    const body = (await res.json()) as { slug?: string; code?: string };
    if (!body.slug) return { status: res.status, id: body.code ?? '' };
    const site = await app.deps.db.selectFrom('projects').select('id').where('slug', '=', body.slug).executeTakeFirstOrThrow();
    return { status: res.status, id: site.id };
  }

  async function auditOf(workspaceId: string) {
    return app.deps.db.selectFrom('audit_events').select(['type', 'actor_name', 'target', 'details']).where('workspace_id', '=', workspaceId).orderBy('id').execute();
  }

  it.skipIf(!available)('gives a new account its personal workspace, itself the owner, shown until it switches', async () => {
    const { creator, browser } = await signedIn('new@example.com', 'Nia Park');
    const res = await browser.json('/api/workspaces');
    expect(res.status).toBe(200);
    const list = ZWorkspaceListSchema.parse(res.body);
    expect(list.currentWorkspaceId).toBe(creator.id);
    expect(list.workspaces).toEqual([expect.objectContaining({ id: creator.id, name: 'Nia Park', personal: true, role: 'owner', memberCount: 1 })]);
    expect(list.workspaces[0]!.permissions).toContain('billing.manage');
  });

  it.skipIf(!available)('publishes into the current workspace: its members see the site and who published it, the personal list does not', async () => {
    const { creator: owner, browser } = await signedIn('studio-owner@example.com', 'Ola Berg');
    const { creator: editor, browser: editorBrowser } = await signedIn('studio-editor@example.com', 'Eda Kaya');
    const studio = await makeWorkspace(browser, 'Studio');
    await addMember(studio, editor.id, 'editor');
    await switchTo(editorBrowser, studio);
    clock.advance(1000);
    const published = await publish(editorBrowser, 'Launch film');
    expect(published.status).toBe(201);
    const site = await app.deps.db.selectFrom('projects').select(['workspace_id', 'owner_creator_id']).where('id', '=', published.id).executeTakeFirstOrThrow();
    expect(site).toEqual({ workspace_id: studio, owner_creator_id: editor.id });

    // The owner sees it once their dashboard shows the studio, with who published it.
    expect(ZCreatorProjectsResponseSchema.parse((await browser.json('/api/creators/me/projects')).body).projects).toEqual([]);
    await switchTo(browser, studio);
    const projects = ZCreatorProjectsResponseSchema.parse((await browser.json('/api/creators/me/projects')).body).projects;
    expect(projects.map((p) => [p.title, p.publishedBy])).toEqual([['Launch film', { name: 'Eda Kaya' }]]);
    // And may manage it: a member's site is the workspace's.
    expect((await browser.json(`/api/projects/${published.id}/settings`)).status).toBe(200);
    expect(await auditOf(studio)).toEqual([
      { type: 'workspace.created', actor_name: 'Ola Berg', target: 'Studio', details: 'Workspace “Studio” created' },
      { type: 'site.published', actor_name: 'Eda Kaya', target: 'Launch film', details: expect.stringMatching(/^Published with 1 file at \//) },
    ]);
    expect(owner.id).not.toBe(editor.id);
  });

  it.skipIf(!available)('refuses a viewer a publish into the workspace (403) and switches only to a workspace the caller is in (404)', async () => {
    const { browser } = await signedIn('viewer-owner@example.com');
    const { creator: viewer, browser: viewerBrowser } = await signedIn('viewer@example.com');
    const { browser: stranger } = await signedIn('stranger@example.com');
    const studio = await makeWorkspace(browser, 'Read only');
    await addMember(studio, viewer.id, 'viewer');
    await switchTo(viewerBrowser, studio);
    const refused = await publish(viewerBrowser, 'Not allowed');
    expect(refused.status).toBe(403);
    const switched = await stranger.json('/api/workspaces/current', { method: 'PUT', json: { workspaceId: studio } });
    expect(switched.status).toBe(404);
    // A member removed meanwhile falls back to their personal workspace at their next request.
    await app.deps.db.deleteFrom('workspace_members').where('workspace_id', '=', studio).where('creator_id', '=', viewer.id).execute();
    expect(ZWorkspaceListSchema.parse((await viewerBrowser.json('/api/workspaces')).body).currentWorkspaceId).toBe(viewer.id);
  });

  it.skipIf(!available)('renames a workspace for its admins (audited) and refuses an editor with 403', async () => {
    const { browser } = await signedIn('rename-owner@example.com');
    const { creator: admin, browser: adminBrowser } = await signedIn('rename-admin@example.com', 'Adi Admin');
    const { creator: editor, browser: editorBrowser } = await signedIn('rename-editor@example.com');
    const studio = await makeWorkspace(browser, 'Old name');
    await addMember(studio, admin.id, 'admin');
    await addMember(studio, editor.id, 'editor');
    clock.advance(1000);
    const renamed = await adminBrowser.json(`/api/workspaces/${studio}`, { method: 'PATCH', json: { name: 'New name' } });
    expect(renamed.status).toBe(200);
    expect(ZWorkspaceSummarySchema.parse(renamed.body)).toMatchObject({ name: 'New name', role: 'admin' });
    const refused = await editorBrowser.json(`/api/workspaces/${studio}`, { method: 'PATCH', json: { name: 'Mine now' } });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: "Only the workspace's owners and admins can do this" });
    expect((await auditOf(studio)).at(-1)).toEqual({ type: 'workspace.renamed', actor_name: 'Adi Admin', target: 'New name', details: 'Renamed from “Old name” to “New name”' });
    const empty = await adminBrowser.json(`/api/workspaces/${studio}`, { method: 'PATCH', json: { name: '  ' } });
    expect(empty.status).toBe(400);
  });

  it.skipIf(!available)('deletes a team workspace with its sites, members and plan rows once its name is typed; never the personal one, nor one whose paid plan runs', async () => {
    const { creator: owner, browser } = await signedIn('delete-owner@example.com');
    const { creator: admin, browser: adminBrowser } = await signedIn('delete-admin@example.com');
    const studio = await makeWorkspace(browser, 'Doomed');
    await addMember(studio, admin.id, 'admin');
    await switchTo(browser, studio);
    const published = await publish(browser, 'Goes with it');
    expect(published.status).toBe(201);
    const slug = (await app.deps.db.selectFrom('projects').select('slug').where('id', '=', published.id).executeTakeFirstOrThrow()).slug;

    const personal = await browser.json(`/api/workspaces/${owner.id}`, { method: 'DELETE', json: { confirmName: 'delete-owner' } });
    expect(personal).toMatchObject({ status: 400, body: { error: PERSONAL_WORKSPACE_UNDELETABLE } });
    expect((await adminBrowser.json(`/api/workspaces/${studio}`, { method: 'DELETE', json: { confirmName: 'Doomed' } })).status).toBe(403);
    expect(await browser.json(`/api/workspaces/${studio}`, { method: 'DELETE', json: { confirmName: 'doomed' } })).toMatchObject({
      status: 400,
      body: { error: CONFIRM_WORKSPACE_NAME_MISMATCH },
    });
    await app.deps.db
      .insertInto('subscriptions')
      .values({
        id: `sub-${studio}`,
        workspace_id: studio,
        plan_id: 'pro',
        status: 'active',
        stripe_customer_id: 'cus_x',
        stripe_subscription_id: 'sub_x',
        current_period_end: null,
        last_event_at: 0,
        created_at: 0,
        updated_at: 0,
        billing_interval: 'monthly',
        trial_end: null,
        trial_used_at: null,
        grace_period_end: null,
        last_checkout_session_id: null,
        open_checkout_session_id: null,
        open_checkout_price: null,
      })
      .execute();
    expect(await browser.json(`/api/workspaces/${studio}`, { method: 'DELETE', json: { confirmName: 'Doomed' } })).toMatchObject({
      status: 409,
      body: { error: PAID_WORKSPACE_UNDELETABLE },
    });
    await app.deps.db.updateTable('subscriptions').set({ status: 'cancelled' }).where('workspace_id', '=', studio).execute();

    const deleted = await browser.fetch(`/api/workspaces/${studio}`, { method: 'DELETE', json: { confirmName: 'Doomed' } });
    expect(deleted.status).toBe(204);
    // Its site is gone the way a deleted site goes: its link says so, and the sweep takes its rows.
    expect((await browser.fetch(`/${slug}`)).status).toBe(410);
    expect((await browser.json(`/api/projects/${published.id}/settings`)).status).toBe(404);
    for (const table of ['workspace_members', 'subscriptions', 'usage', 'audit_events'] as const) {
      expect(await app.deps.db.selectFrom(table).select('workspace_id').where('workspace_id', '=', studio).execute()).toEqual([]);
    }
    expect(await app.deps.db.selectFrom('workspaces').select('id').where('id', '=', studio).execute()).toEqual([]);
    // The dashboard that showed it shows the personal workspace again.
    expect(ZWorkspaceListSchema.parse((await browser.json('/api/workspaces')).body)).toMatchObject({ currentWorkspaceId: owner.id, workspaces: [{ id: owner.id }] });
  });

  it.skipIf(!available)('moves a site between two workspaces of an owner or admin of both, with its usage and an audit event in each', async () => {
    const { creator: owner, browser } = await signedIn('mover@example.com', 'Mo Ver');
    const { creator: editor, browser: editorBrowser } = await signedIn('mover-editor@example.com');
    const studio = await makeWorkspace(browser, 'Target');
    await addMember(studio, editor.id, 'editor');
    const site = await seedSite(app, { title: 'Moving' });
    await app.deps.db.updateTable('projects').set({ owner_creator_id: owner.id, workspace_id: owner.id }).where('id', '=', site.project.id).execute();
    // The editor is no member of the site's workspace: 404; the owner moves it to where it already is: 400.
    expect((await editorBrowser.json(`/api/sites/${site.project.id}/transfer`, { method: 'POST', json: { workspaceId: studio } })).status).toBe(404);
    expect((await browser.json(`/api/sites/${site.project.id}/transfer`, { method: 'POST', json: { workspaceId: owner.id } })).status).toBe(400);
    expect((await browser.json(`/api/sites/${site.project.id}/transfer`, { method: 'POST', json: { workspaceId: editor.id } })).status).toBe(404);

    clock.advance(1000);
    const moved = await browser.json(`/api/sites/${site.project.id}/transfer`, { method: 'POST', json: { workspaceId: studio } });
    expect(moved).toMatchObject({ status: 200, body: { success: true, workspaceId: studio } });
    expect((await app.deps.db.selectFrom('projects').select('workspace_id').where('id', '=', site.project.id).executeTakeFirstOrThrow()).workspace_id).toBe(studio);
    const usageOf = async (workspaceId: string) => {
      await switchTo(browser, workspaceId);
      return ZUsageResponseSchema.parse((await browser.json('/api/billing/usage')).body).currentUsage;
    };
    expect((await usageOf(studio)).projects_count).toBe(1);
    expect((await usageOf(owner.id)).projects_count).toBe(0);
    expect((await auditOf(owner.id)).at(-1)).toEqual({ type: 'site.transferred', actor_name: 'Mo Ver', target: 'Moving', details: 'Moved to “Target”' });
    expect((await auditOf(studio)).at(-1)).toEqual({ type: 'site.transferred', actor_name: 'Mo Ver', target: 'Moving', details: 'Moved here from “Mo Ver”' });
    // The editor of the target may edit it now, but not move it on.
    expect((await editorBrowser.json(`/api/projects/${site.project.id}/settings`)).status).toBe(200);
    expect((await editorBrowser.json(`/api/sites/${site.project.id}/transfer`, { method: 'POST', json: { workspaceId: studio } })).status).toBe(403);
  });

  it.skipIf(!available)('counts Free’s sites per person: a second Free workspace of the same owner makes no more room', async () => {
    const { creator: owner, browser } = await signedIn('free-person@example.com');
    for (let i = 0; i < PLANS.free.limits.projects; i++) {
      const site = await seedSite(app, { title: `Mine ${i}` });
      await app.deps.db.updateTable('projects').set({ owner_creator_id: owner.id, workspace_id: owner.id }).where('id', '=', site.project.id).execute();
    }
    const second = await makeWorkspace(browser, 'Second free');
    await switchTo(browser, second);
    const refused = await publish(browser, 'One too many');
    expect(refused).toEqual({ status: 403, id: 'site_limit_reached' });
    // Someone else's Free workspace has its own room, whoever publishes into it.
    const { creator: other, browser: otherBrowser } = await signedIn('free-other@example.com');
    const theirs = await makeWorkspace(otherBrowser, 'Theirs');
    await addMember(theirs, owner.id, 'editor');
    await switchTo(browser, theirs);
    expect((await publish(browser, 'Room here')).status).toBe(201);
    expect(other.id).not.toBe(owner.id);
  });

  it.skipIf(!available)('claims an anonymous creator’s sites into the current workspace (audited), and refuses a viewer there with 403, moving nothing', async () => {
    const { browser: owner } = await signedIn('claim-owner@example.com');
    const { creator: editor } = await signedIn('claim-editor@example.com', 'Cla Imer');
    const { creator: viewer } = await signedIn('claim-viewer@example.com');
    const studio = await makeWorkspace(owner, 'Claimed into');
    await addMember(studio, editor.id, 'editor');
    await addMember(studio, viewer.id, 'viewer');
    const claimAs = async (person: TTestCreator, title: string) => {
      // A browser that published before signing in, then signed in as the person.
      const browser = createBrowser(app);
      expect((await browser.fetch('/api/upload', { method: 'POST', body: buildUploadForm([PHOTO], { title }) })).status).toBe(201);
      const session = person.cookie.slice(0, person.cookie.indexOf('='));
      browser.cookies.set(session, person.cookie.slice(person.cookie.indexOf('=') + 1));
      await switchTo(browser, studio);
      clock.advance(1000);
      return browser.json<{ claimed?: number }>('/api/creators/claim', { method: 'POST', json: {} });
    };
    const refused = await claimAs(viewer, 'Viewer’s draft');
    expect(refused.status).toBe(403);
    expect(await app.deps.db.selectFrom('projects').select(['owner_creator_id', 'workspace_id']).where('title', '=', 'Viewer’s draft').execute()).toEqual([
      { owner_creator_id: null, workspace_id: null },
    ]);
    const claimed = await claimAs(editor, 'Editor’s draft');
    expect(claimed).toMatchObject({ status: 200, body: { claimed: 1 } });
    expect(await app.deps.db.selectFrom('projects').select(['owner_creator_id', 'workspace_id']).where('title', '=', 'Editor’s draft').execute()).toEqual([
      { owner_creator_id: editor.id, workspace_id: studio },
    ]);
    expect((await auditOf(studio)).at(-1)).toMatchObject({ type: 'site.claimed', actor_name: 'Cla Imer', target: 'Editor’s draft' });
  });

  it.skipIf(!available)('counts collaborators as the members and the invitations not yet accepted, revoked or expired', async () => {
    const { creator: owner, browser } = await signedIn('seats@example.com');
    const { creator: member } = await signedIn('seat-member@example.com');
    const studio = await makeWorkspace(browser, 'Seats');
    await addMember(studio, member.id, 'editor');
    const now = clock.now();
    const invitation = (id: string, changes: { expires_at?: number; accepted_at?: number; revoked_at?: number }) => ({
      id: `${id}${studio}`.slice(0, 26),
      workspace_id: studio,
      email: `${id}@example.com`,
      role: 'viewer' as const,
      token_hash: `hash-${id}-${studio}`,
      invited_by: owner.id,
      created_at: now,
      expires_at: changes.expires_at ?? now + 86_400_000,
      accepted_at: changes.accepted_at ?? null,
      accepted_by: null,
      revoked_at: changes.revoked_at ?? null,
    });
    await app.deps.db
      .insertInto('workspace_invitations')
      .values([invitation('pending', {}), invitation('expired', { expires_at: now - 1 }), invitation('revoked', { revoked_at: now }), invitation('accepted', { accepted_at: now })])
      .execute();
    await switchTo(browser, studio);
    const usage = ZUsageResponseSchema.parse((await browser.json('/api/billing/usage')).body);
    expect(usage.currentUsage.collaborators_count).toBe(3);
  });

  it.skipIf(!available)('records a site’s edits by field name, its password and expiry changes without their values, and its deletion', async () => {
    const { creator: owner, browser } = await signedIn('auditor@example.com', 'Aud Itor');
    const site = await seedSite(app, { title: 'Audited' });
    await app.deps.db.updateTable('projects').set({ owner_creator_id: owner.id, workspace_id: owner.id }).where('id', '=', site.project.id).execute();
    const expiresAt = new Date(clock.now() + 50 * 86_400_000).toISOString();
    const edited = await browser.json(`/api/projects/${site.project.id}`, {
      method: 'PATCH',
      json: { title: 'Audited again', description: 'New words', password: 'secret-password-1' },
    });
    expect(edited.status).toBe(200);
    clock.advance(1000);
    expect((await browser.json(`/api/projects/${site.project.id}`, { method: 'PATCH', json: { expiresAt, password: null } })).status).toBe(200);
    clock.advance(1000);
    expect((await browser.json(`/api/projects/${site.project.id}`, { method: 'DELETE', json: { confirmTitle: 'Audited again' } })).status).toBe(200);
    const events = (await auditOf(owner.id)).filter((e) => e.target === 'Audited' || e.target === 'Audited again');
    // Events of one request share its time: compared without their order.
    expect(events.map((e) => [e.type, e.details]).toSorted()).toEqual(
      [
        ['site.edited', 'Changed title, description'],
        ['site.password_changed', 'Password set'],
        ['site.expiry_changed', `Expires ${expiresAt}`],
        ['site.password_changed', 'Password removed'],
        ['site.deleted', 'Deleted'],
      ].toSorted(),
    );
    expect(JSON.stringify(events)).not.toContain('secret-password-1');
    expect(events.every((e) => e.actor_name === 'Aud Itor')).toBe(true);
  });

  it.skipIf(!available)('shows a reply in a team’s workspace under the name of the member who wrote it', async () => {
    const lead = await signedIn(`lead-reply-${dialect}@studio.example`, 'Noor Haddad');
    const editor = await signedIn(`editor-reply-${dialect}@studio.example`, 'Ivo Brandt');
    const team = await makeWorkspace(lead.browser, 'Reply Studio');
    await addMember(team, editor.creator.id, 'editor');
    const site = await seedSite(app, { title: 'Team proofs', settings: { enableComments: true } });
    await app.deps.db
      .updateTable('projects')
      .set({ workspace_id: team, owner_creator_id: lead.creator.id, author_name: 'Reply Studio' })
      .where('id', '=', site.project.id)
      .execute();
    const visitor = createBrowser(app);
    const posted = await visitor.json<{ comment: { id: string } }>('/api/comments', {
      method: 'POST',
      json: { projectId: site.project.id, fileId: site.files[0]!.id, commentText: 'Warmer, please?' },
    });
    expect(posted.status).toBe(201);
    const reply = await editor.browser.json<{ comment: { userName: string; isCreator: boolean } }>(`/api/projects/${site.project.id}/comments/${posted.body.comment.id}/replies`, {
      method: 'POST',
      json: { text: 'On it.' },
    });
    expect(reply.status).toBe(201);
    expect(reply.body.comment).toMatchObject({ userName: 'Ivo Brandt', isCreator: true });
  });
});
