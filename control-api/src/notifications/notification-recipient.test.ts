/**
 * Who receives a site's notifications: the account's confirmed email by default, a site's own
 * address when given (confirmed by link first), and never nobody: switching notifications on
 * with no one to receive them is refused, at publishing and in the site's settings.
 */
import { describe, expect, it } from 'vitest';
import { SITE_MANAGEMENT_MESSAGES, type TSiteSettings } from '@dropsite/shared';
import { createFakeClock } from '@dropsite/testkit/control-api/test-app';
import { createBrowser, seedSite, type TSeededSite } from '@dropsite/testkit/control-api/site-fixtures';
import { browserSignedInAs, createSignedInCreator, type TTestCreator } from '@dropsite/testkit/control-api/accounts';
import { putOnPlan } from '@dropsite/testkit/control-api/billing';
import { buildUploadForm, makeJpeg, postUpload } from '@dropsite/testkit/control-api/fixtures';
import { newId } from '../db/ids.ts';
import { parseSiteSettings } from '../site-records/site-records.repository.ts';
import { dispatchDueNotifications } from './notifications.service.ts';
import { findEmailAddress, insertPendingEmailAddress, setEmailAddressStatus } from './email-addresses.repository.ts';
import { emailRecipientOf, ownerKeyOf, preferAccountAddressAfterClaim } from './email-confirmation.service.ts';
import { headerOf, mailingTestAppForSuite } from '@dropsite/testkit/control-api/smtp-test-server';

describe('notification recipients', () => {
  const clock = createFakeClock();
  const { app, smtp } = mailingTestAppForSuite({ clock });

  /** A site the account owns, on a plan with notifications. */
  async function ownedSite(owner: TTestCreator, settings: Partial<TSiteSettings>): Promise<TSeededSite> {
    await putOnPlan(app.deps, owner.id, 'pro_monthly');
    const site = await seedSite(app, { settings });
    await app.deps.db.updateTable('projects').set({ owner_creator_id: owner.id, workspace_id: owner.id, anonymous_session_id: null }).where('id', '=', site.project.id).execute();
    return { ...site, project: { ...site.project, owner_creator_id: owner.id, anonymous_session_id: null } };
  }

  async function engageEveryWay(site: TSeededSite): Promise<void> {
    const json = { projectId: site.project.id, fileId: site.files[0]!.id };
    const visitor = createBrowser(app);
    expect((await visitor.json('/api/comments', { method: 'POST', json: { ...json, commentText: 'Lovely light' } })).status).toBe(201);
    expect((await visitor.json('/api/favorites', { method: 'POST', json })).status).toBe(200);
    expect((await visitor.json('/api/approvals', { method: 'POST', json: { ...json, status: 'approved' } })).status).toBe(200);
  }

  it("sends a comment, a favourite and an approval to the account's confirmed email when the site names no address", async () => {
    const owner = await createSignedInCreator(app.deps, { email: 'anna@example.com' });
    const site = await ownedSite(owner, { enableNotifications: true, enableComments: true, enableApprovals: true, notificationEmail: '' });
    expect(await emailRecipientOf(app.deps.db, site.project, parseSiteSettings(JSON.stringify({ enableNotifications: true })))).toEqual({
      email: 'anna@example.com',
      source: 'account',
    });
    await engageEveryWay(site);
    clock.advance(60_000);
    const before = smtp.messages.length;
    expect(await dispatchDueNotifications(app.deps)).toMatchObject({ sent: 1 });
    const mail = smtp.messages[before]!;
    expect(mail.to).toEqual(['anna@example.com']);
    expect(headerOf(mail.raw, 'Subject')).toBe('3 new interactions on "Autumn Wedding"');
    expect(headerOf(mail.raw, 'List-Unsubscribe')).toMatch(/^<http.+>$/);
  });

  it("sends nothing to an account address that unsubscribed, and nothing to an unconfirmed account's address", async () => {
    const unsubscribed = await createSignedInCreator(app.deps, { email: 'gone@example.com' });
    const site = await ownedSite(unsubscribed, { enableNotifications: true, notificationEmail: '' });
    const ownerKey = ownerKeyOf(site.project);
    await insertPendingEmailAddress(app.deps.db, { id: newId(), email: 'gone@example.com', ownerKey, now: clock.now() });
    await setEmailAddressStatus(app.deps.db, (await findEmailAddress(app.deps.db, 'gone@example.com', ownerKey))!.id, 'unsubscribed', clock.now());

    const unconfirmed = await createSignedInCreator(app.deps, { email: 'new@example.com', verified: false });
    const legacy = await ownedSite(unconfirmed, { enableNotifications: true, notificationEmail: '' });
    expect(await emailRecipientOf(app.deps.db, legacy.project, { enableNotifications: true, notificationEmail: '' })).toBeNull();

    await engageEveryWay(site);
    await engageEveryWay(legacy);
    clock.advance(60_000);
    const before = smtp.messages.length;
    await dispatchDueNotifications(app.deps);
    expect(smtp.messages.slice(before).filter((m) => m.to.includes('gone@example.com') || m.to.includes('new@example.com'))).toEqual([]);
  });

  it('refuses to switch notifications on with no one to receive them, and accepts the account default or an address', async () => {
    const owner = await createSignedInCreator(app.deps, { email: 'pending@example.com', verified: false });
    const site = await ownedSite(owner, { enableNotifications: false, notificationEmail: '' });
    const browser = browserSignedInAs(app, owner);
    const patch = (settings: Record<string, unknown>) =>
      browser.json<{
        success: boolean;
        error?: string;
        project?: { settings: { enableNotifications: boolean; notificationEmail: string }; accountNotificationEmail: string | null };
      }>(`/api/projects/${site.project.id}`, { method: 'PATCH', json: { settings } });

    const refused = await patch({ enableNotifications: true, notificationEmail: '' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe(SITE_MANAGEMENT_MESSAGES.notificationsNeedRecipient);
    const stored = await app.deps.db.selectFrom('projects').select('settings').where('id', '=', site.project.id).executeTakeFirstOrThrow();
    expect(parseSiteSettings(stored.settings).enableNotifications).toBe(false);

    // A site's own address is a recipient (it gets a confirmation link first).
    const ownAddress = await patch({ enableNotifications: true, notificationEmail: 'studio@example.com' });
    expect(ownAddress.status).toBe(200);
    expect(ownAddress.body.project).toMatchObject({ settings: { enableNotifications: true, notificationEmail: 'studio@example.com' }, accountNotificationEmail: null });
    // Clearing it while notifications are on would leave no one: refused.
    expect((await patch({ notificationEmail: '' })).status).toBe(400);

    // Once the account's email is confirmed, it is the default.
    await app.deps.db.updateTable('creators').set({ email_verified_at: clock.now() }).where('id', '=', owner.id).execute();
    const byDefault = await patch({ enableNotifications: true, notificationEmail: '' });
    expect(byDefault.status).toBe(200);
    expect(byDefault.body.project).toMatchObject({ settings: { enableNotifications: true, notificationEmail: '' }, accountNotificationEmail: 'pending@example.com' });
  });

  it('refuses an anonymous publish with notifications on and no address', async () => {
    const files = [{ name: 'a.jpg', type: 'image/jpeg', bytes: await makeJpeg(64, 48, 1) }];
    const refused = await postUpload(app.url, buildUploadForm(files, { settings: JSON.stringify({ enableNotifications: true, notificationEmail: '' }) }));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe(SITE_MANAGEMENT_MESSAGES.notificationsNeedRecipient);
    const accepted = await postUpload(app.url, buildUploadForm(files, { settings: JSON.stringify({ enableNotifications: true, notificationEmail: 'me@example.com' }) }));
    expect(accepted.status).toBe(201);
  });

  it("moves a claimed site's unconfirmed or same address to the account's, keeping an address confirmed for the session", async () => {
    const owner = await createSignedInCreator(app.deps, { email: 'claimer@example.com' });
    const sessionId = newId();
    const seed = async (notificationEmail: string) => {
      const site = await seedSite(app, { settings: { enableNotifications: true, notificationEmail } });
      await app.deps.db
        .updateTable('projects')
        .set({ owner_creator_id: owner.id, workspace_id: owner.id, anonymous_session_id: sessionId })
        .where('id', '=', site.project.id)
        .execute();
      return site.project.id;
    };
    const unconfirmed = await seed('never-confirmed@example.com');
    const same = await seed('CLAIMER@example.com');
    const confirmed = await seed('assistant@example.com');
    const ownerKey = ownerKeyOf({ id: owner.id, owner_creator_id: owner.id });
    await insertPendingEmailAddress(app.deps.db, { id: newId(), email: 'assistant@example.com', ownerKey, now: clock.now() });
    await setEmailAddressStatus(app.deps.db, (await findEmailAddress(app.deps.db, 'assistant@example.com', ownerKey))!.id, 'confirmed', clock.now());

    await preferAccountAddressAfterClaim(app.deps.db, sessionId, owner.id, clock.now());
    const addressOf = async (id: string) =>
      parseSiteSettings((await app.deps.db.selectFrom('projects').select('settings').where('id', '=', id).executeTakeFirstOrThrow()).settings).notificationEmail;
    expect(await addressOf(unconfirmed)).toBe('');
    expect(await addressOf(same)).toBe('');
    expect(await addressOf(confirmed)).toBe('assistant@example.com');
  });
});
