import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_ERRORS, ZAuditPageSchema, ZInvitationPreviewSchema, ZWorkspaceMembersSchema } from '@dropsite/shared';
import { createCapturingMailer, type TCapturingMailer } from '@dropsite/testkit/control-api/account-mail';
import { browserSignedInAs, createSignedInCreator, type TTestCreator } from '@dropsite/testkit/control-api/accounts';
import { putOnPlan } from '@dropsite/testkit/control-api/billing';
import { createBrowser, type TBrowser } from '@dropsite/testkit/control-api/site-fixtures';
import { isDialectAvailable, TEST_DIALECTS, testAppDatabase } from '@dropsite/testkit/control-api/test-database';
import { createFakeClock, startTestApp, UNREACHED_RATE_LIMITS, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { seedWorkspace } from '@dropsite/testkit/control-api/workspaces';
import { INVITATION_EXPIRED, INVITATION_INVALID, INVITATION_OTHER_ADDRESS, INVITATION_UNCONFIRMED, LAST_OWNER, OWNER_ONLY } from './members.service.ts';
import { sweepAuditLog } from './audit-log.service.ts';
import { permissionRefusal } from '../workspaces/workspace-access.ts';

const DAY_MS = 86_400_000;

describe.each(TEST_DIALECTS)('workspace members, invitations and the audit log (%s)', async (dialect) => {
  const available = await isDialectAvailable(dialect);
  const clock = createFakeClock(Date.UTC(2026, 11, 8, 9, 0, 0));
  let app: TTestApp;
  let database: ReturnType<typeof testAppDatabase>;
  let mail: TCapturingMailer;
  let counter = 0;

  beforeAll(async () => {
    if (!available) return;
    database = testAppDatabase(dialect, 'workspace_members');
    app = await startTestApp({ startWorker: false, clock, config: { ...database.config, rateLimits: UNREACHED_RATE_LIMITS } });
    mail = createCapturingMailer();
    app.deps.mailer = mail;
  });
  afterAll(async () => {
    if (!available) return;
    await app.close();
    await database.drop();
  });

  async function person(label: string, options: { verified?: boolean; name?: string } = {}): Promise<{ creator: TTestCreator; browser: TBrowser }> {
    counter += 1;
    const creator = await createSignedInCreator(app.deps, { email: `${label}-${counter}@studio.example`, name: options.name ?? `${label} ${counter}`, verified: options.verified });
    return { creator, browser: browserSignedInAs(app, creator) };
  }

  /** A Business workspace with an owner, an admin, an editor and a viewer. */
  async function studio() {
    const [owner, admin, editor, viewer] = await Promise.all([person('owner'), person('admin'), person('editor'), person('viewer')]);
    const id = await seedWorkspace(app.deps, {
      name: 'North Light Studio',
      members: [
        { id: owner.creator.id, role: 'owner' },
        { id: admin.creator.id, role: 'admin' },
        { id: editor.creator.id, role: 'editor' },
        { id: viewer.creator.id, role: 'viewer' },
      ],
    });
    await putOnPlan(app.deps, id, 'business_monthly');
    return { id, owner, admin, editor, viewer };
  }

  async function invite(browser: TBrowser, workspaceId: string, email: string, role = 'editor') {
    return browser.json(`/api/workspaces/${workspaceId}/invitations`, { method: 'POST', json: { email, role } });
  }

  it.skipIf(!available)('invites by email, shows the invitation, and lets the invited address join in its role', async () => {
    const team = await studio();
    const newcomer = await person('newcomer');
    const sent = await invite(team.admin.browser, team.id, ` ${newcomer.creator.email.toUpperCase()} `, 'editor');
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ email: newcomer.creator.email, role: 'editor' });

    const message = mail.sent.findLast((m) => m.to === newcomer.creator.email)!;
    expect(message.subject).toContain('North Light Studio');
    expect(message.text).toContain('Your role: Editor.');
    const token = mail.lastToken(newcomer.creator.email, '/invite/');

    const listed = ZWorkspaceMembersSchema.parse((await team.viewer.browser.json(`/api/workspaces/${team.id}/members`)).body);
    expect(listed.members.map((m) => m.role)).toEqual(['owner', 'admin', 'editor', 'viewer']);
    expect(listed.invitations).toEqual([expect.objectContaining({ email: newcomer.creator.email, role: 'editor' })]);
    expect(listed.seats).toEqual({ used: 5, limit: -1 });

    const preview = await createBrowser(app).json(`/api/invitations/${token}`);
    expect(preview.status).toBe(200);
    expect(ZInvitationPreviewSchema.parse(preview.body)).toMatchObject({ workspaceName: 'North Light Studio', email: newcomer.creator.email, role: 'editor' });

    clock.advance(1000);
    const accepted = await newcomer.browser.json(`/api/invitations/${token}/accept`, { method: 'POST' });
    expect(accepted.status).toBe(200);
    expect(accepted.body).toMatchObject({ currentWorkspaceId: team.id, workspaces: expect.arrayContaining([expect.objectContaining({ id: team.id, role: 'editor' })]) });
    const after = ZWorkspaceMembersSchema.parse((await newcomer.browser.json(`/api/workspaces/${team.id}/members`)).body);
    expect(after.members.find((m) => m.isYou)).toMatchObject({ email: newcomer.creator.email, role: 'editor' });
    expect(after.invitations).toEqual([]);
    expect(after.seats.used).toBe(5);

    // Single use: the link is spent.
    const again = await newcomer.browser.json(`/api/invitations/${token}/accept`, { method: 'POST' });
    expect(again).toMatchObject({ status: 404, body: { error: INVITATION_INVALID } });
    expect((await createBrowser(app).json(`/api/invitations/${token}`)).status).toBe(404);

    const log = ZAuditPageSchema.parse((await team.owner.browser.json(`/api/workspaces/${team.id}/audit`)).body);
    expect(log.events.map((e) => [e.type, e.target, e.details])).toEqual([
      ['member.joined', newcomer.creator.email, 'Joined as Editor'],
      ['member.invited', newcomer.creator.email, 'Invited as Editor'],
    ]);
    expect(log.events[1]!.actor).toEqual({ creatorId: team.admin.creator.id, name: team.admin.creator.email.split('@')[0]!.replace('-', ' ') });
  });

  it.skipIf(!available)('refuses an invitation accepted by another address, an unconfirmed one, an expired or a revoked one', async () => {
    const team = await studio();
    const invited = await person('invited');
    const other = await person('other');
    await invite(team.owner.browser, team.id, invited.creator.email);
    const token = mail.lastToken(invited.creator.email, '/invite/');
    expect(await other.browser.json(`/api/invitations/${token}/accept`, { method: 'POST' })).toMatchObject({ status: 403, body: { error: INVITATION_OTHER_ADDRESS } });

    const unconfirmed = await person('unconfirmed', { verified: false });
    await invite(team.owner.browser, team.id, unconfirmed.creator.email);
    const unconfirmedToken = mail.lastToken(unconfirmed.creator.email, '/invite/');
    expect(await unconfirmed.browser.json(`/api/invitations/${unconfirmedToken}/accept`, { method: 'POST' })).toMatchObject({
      status: 403,
      body: { error: INVITATION_UNCONFIRMED },
    });

    const list = ZWorkspaceMembersSchema.parse((await team.owner.browser.json(`/api/workspaces/${team.id}/members`)).body);
    const revokedId = list.invitations.find((i) => i.email === invited.creator.email)!.id;
    expect((await team.editor.browser.json(`/api/workspaces/${team.id}/invitations/${revokedId}`, { method: 'DELETE' })).status).toBe(403);
    expect((await team.admin.browser.fetch(`/api/workspaces/${team.id}/invitations/${revokedId}`, { method: 'DELETE' })).status).toBe(204);
    expect(await invited.browser.json(`/api/invitations/${token}/accept`, { method: 'POST' })).toMatchObject({ status: 404, body: { error: INVITATION_INVALID } });

    const late = await person('late');
    await invite(team.owner.browser, team.id, late.creator.email, 'viewer');
    const lateToken = mail.lastToken(late.creator.email, '/invite/');
    clock.advance(7 * DAY_MS + 1);
    expect(await createBrowser(app).json(`/api/invitations/${lateToken}`)).toMatchObject({ status: 410, body: { error: INVITATION_EXPIRED } });
    expect(await late.browser.json(`/api/invitations/${lateToken}/accept`, { method: 'POST' })).toMatchObject({ status: 410 });
    const members = ZWorkspaceMembersSchema.parse((await team.owner.browser.json(`/api/workspaces/${team.id}/members`)).body);
    expect(members.members.map((m) => m.email)).not.toContain(late.creator.email);
    // Expired invitations no longer take a seat.
    expect(members.invitations.map((i) => i.email)).not.toContain(late.creator.email);
  });

  it.skipIf(!available)("counts seats against the plan: Free and Pro have the owner's alone, Business is unlimited", async () => {
    const owner = await person('solo');
    const id = await seedWorkspace(app.deps, { name: 'Solo', members: [{ id: owner.creator.id, role: 'owner' }] });
    const refused = await invite(owner.browser, id, 'friend@studio.example');
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'seat_limit_reached', error: BILLING_ERRORS.seat_limit_reached.message, limit: 1, used: 1, requested: 1 });
    await putOnPlan(app.deps, id, 'pro_monthly');
    expect((await invite(owner.browser, id, 'friend@studio.example')).status).toBe(403);
    await putOnPlan(app.deps, id, 'business_monthly');
    expect((await invite(owner.browser, id, 'friend@studio.example')).status).toBe(201);
    // The same address again replaces its invitation: still one seat for it.
    expect((await invite(owner.browser, id, 'friend@studio.example', 'viewer')).status).toBe(201);
    const members = ZWorkspaceMembersSchema.parse((await owner.browser.json(`/api/workspaces/${id}/members`)).body);
    expect(members.invitations).toEqual([expect.objectContaining({ email: 'friend@studio.example', role: 'viewer' })]);
    expect(members.seats).toEqual({ used: 2, limit: -1 });
    // A member's address is not invited twice.
    expect((await invite(owner.browser, id, owner.creator.email)).status).toBe(409);
  });

  it.skipIf(!available)('keeps roles in their lanes: no one raises their own role, admins leave owners be, a workspace keeps an owner', async () => {
    const team = await studio();
    const patch = (browser: TBrowser, who: TTestCreator, role: string) => browser.json(`/api/workspaces/${team.id}/members/${who.id}`, { method: 'PATCH', json: { role } });

    expect(await patch(team.editor.browser, team.editor.creator, 'admin')).toMatchObject({ status: 403, body: { error: permissionRefusal('members.manage') } });
    expect(await patch(team.viewer.browser, team.viewer.creator, 'owner')).toMatchObject({ status: 403 });
    expect(await patch(team.admin.browser, team.admin.creator, 'owner')).toMatchObject({ status: 403, body: { error: OWNER_ONLY } });
    expect(await patch(team.admin.browser, team.owner.creator, 'viewer')).toMatchObject({ status: 403, body: { error: OWNER_ONLY } });
    expect((await team.admin.browser.fetch(`/api/workspaces/${team.id}/members/${team.owner.creator.id}`, { method: 'DELETE' })).status).toBe(403);
    expect(await patch(team.owner.browser, team.owner.creator, 'admin')).toMatchObject({ status: 409, body: { error: LAST_OWNER } });
    expect(await team.owner.browser.json(`/api/workspaces/${team.id}/members/${team.owner.creator.id}`, { method: 'DELETE' })).toMatchObject({
      status: 409,
      body: { error: LAST_OWNER },
    });

    // An admin may change an editor's role; the owner may make another owner, then step down.
    expect(await patch(team.admin.browser, team.editor.creator, 'viewer')).toMatchObject({ status: 200, body: { role: 'viewer' } });
    clock.advance(1000);
    expect(await patch(team.owner.browser, team.admin.creator, 'owner')).toMatchObject({ status: 200, body: { role: 'owner' } });
    clock.advance(1000);
    expect(await patch(team.owner.browser, team.owner.creator, 'editor')).toMatchObject({ status: 200, body: { role: 'editor', isYou: true } });

    const log = ZAuditPageSchema.parse((await team.admin.browser.json(`/api/workspaces/${team.id}/audit?type=member.role_changed`)).body);
    expect(log.events.map((e) => e.details)).toEqual(['Owner → Editor', 'Editor → Viewer']);
    // Viewers and editors do not read the audit log.
    expect((await team.viewer.browser.json(`/api/workspaces/${team.id}/audit`)).status).toBe(403);
  });

  it.skipIf(!available)("ends a removed member's access at their next request, open session and all", async () => {
    const team = await studio();
    expect((await team.editor.browser.json(`/api/workspaces/${team.id}/members`)).status).toBe(200);
    expect((await team.admin.browser.fetch(`/api/workspaces/${team.id}/members/${team.editor.creator.id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await team.editor.browser.json(`/api/workspaces/${team.id}/members`)).toMatchObject({ status: 404, body: { error: 'Workspace not found' } });
    // A viewer leaves on their own.
    clock.advance(1000);
    expect((await team.viewer.browser.fetch(`/api/workspaces/${team.id}/members/${team.viewer.creator.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await team.viewer.browser.json(`/api/workspaces/${team.id}/members`)).status).toBe(404);
    const log = ZAuditPageSchema.parse((await team.owner.browser.json(`/api/workspaces/${team.id}/audit`)).body);
    expect(log.events.slice(0, 2).map((e) => [e.type, e.target])).toEqual([
      ['member.left', team.viewer.creator.email],
      ['member.removed', team.editor.creator.email],
    ]);
  });

  it.skipIf(!available)('answers a stranger 404 and a signed-out caller 401, whatever the workspace', async () => {
    const team = await studio();
    const stranger = await person('stranger');
    for (const path of [`/api/workspaces/${team.id}/members`, `/api/workspaces/${team.id}/audit`, `/api/workspaces/${team.id}/audit.csv`]) {
      expect((await stranger.browser.json(path)).status).toBe(404);
      expect((await createBrowser(app).fetch(path)).status).toBe(401);
    }
    expect((await invite(stranger.browser, team.id, 'x@studio.example')).status).toBe(404);
  });

  it.skipIf(!available)('pages and filters the audit log, exports it as CSV with formulas defused, and keeps what the plan keeps', async () => {
    const sneaky = await person('sneaky', { name: '=HYPERLINK("https://evil.example","x")' });
    const id = await seedWorkspace(app.deps, { name: 'Records', members: [{ id: sneaky.creator.id, role: 'owner' }] });
    await putOnPlan(app.deps, id, 'business_monthly');
    for (let i = 0; i < 5; i++) {
      expect((await invite(sneaky.browser, id, `guest${i}@studio.example`, 'viewer')).status).toBe(201);
      clock.advance(60_000);
    }
    const first = ZAuditPageSchema.parse((await sneaky.browser.json(`/api/workspaces/${id}/audit?limit=2`)).body);
    expect(first.events.map((e) => e.target)).toEqual(['guest4@studio.example', 'guest3@studio.example']);
    const second = ZAuditPageSchema.parse((await sneaky.browser.json(`/api/workspaces/${id}/audit?limit=2&before=${first.nextBefore}`)).body);
    expect(second.events.map((e) => e.target)).toEqual(['guest2@studio.example', 'guest1@studio.example']);
    const last = ZAuditPageSchema.parse((await sneaky.browser.json(`/api/workspaces/${id}/audit?limit=2&before=${second.nextBefore}`)).body);
    expect(last).toMatchObject({ events: [expect.objectContaining({ target: 'guest0@studio.example' })], nextBefore: null });
    expect((await sneaky.browser.json(`/api/workspaces/${id}/audit?type=member.joined`)).body).toEqual({ events: [], nextBefore: null });
    expect((await sneaky.browser.json(`/api/workspaces/${id}/audit?type=made.up`)).status).toBe(400);

    const csv = await sneaky.browser.fetch(`/api/workspaces/${id}/audit.csv`);
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toContain('audit-log.csv');
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines[0]).toBe('time,event,member,target,details,address');
    expect(lines).toHaveLength(6);
    expect(lines[1]).toContain(`"Member invited","'=HYPERLINK(""https://evil.example"",""x"")","guest4@studio.example","Invited as Viewer"`);

    // Free keeps 30 days, Business a year: the same events, 40 days old, seen or not by the plan.
    const age = async (days: number) => {
      await app.deps.db
        .updateTable('audit_events')
        .set({ created_at: clock.now() - days * DAY_MS })
        .where('workspace_id', '=', id)
        .execute();
    };
    await age(40);
    await app.deps.db.updateTable('subscriptions').set({ plan_id: 'free' }).where('workspace_id', '=', id).execute();
    expect(ZAuditPageSchema.parse((await sneaky.browser.json(`/api/workspaces/${id}/audit`)).body).events).toEqual([]);
    await putOnPlan(app.deps, id, 'business_monthly');
    expect(ZAuditPageSchema.parse((await sneaky.browser.json(`/api/workspaces/${id}/audit`)).body).events).toHaveLength(5);
    // Nothing older than a year is kept at all.
    expect(await sweepAuditLog(app.deps)).toBe(0);
    await age(366);
    expect(await sweepAuditLog(app.deps)).toBeGreaterThanOrEqual(5);
    expect(await app.deps.db.selectFrom('audit_events').select('id').where('workspace_id', '=', id).execute()).toEqual([]);
  });
});
