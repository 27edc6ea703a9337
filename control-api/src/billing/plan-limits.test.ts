import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_ERRORS, derivedPrefix, PLANS, ZUsageResponseSchema } from '@dropsite/shared';
import { browserSignedInAs, createSignedInCreator, type TTestCreator } from '@dropsite/testkit/control-api/accounts';
import { putOnPlan } from '@dropsite/testkit/control-api/billing';
import { buildUploadForm } from '@dropsite/testkit/control-api/fixtures';
import { seedSite, type TSeededSite } from '@dropsite/testkit/control-api/site-fixtures';
import { isDialectAvailable, TEST_DIALECTS, testAppDatabase } from '@dropsite/testkit/control-api/test-database';
import { startTestApp, UNREACHED_RATE_LIMITS, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { sha256 } from '@dropsite/testkit/bytes';
import { completeSession, FORM, initChunked, rawRequest, sendChunk, type TJson } from '@dropsite/testkit/control-api/upload-session-client';
import { recountUsage, refreshUsage, storageInUse } from './usage.service.ts';

const FREE_STORAGE = PLANS.free.limits.storage;
const NO_PRO_FEATURES = { enableAnalytics: true, enableComments: false };

describe.each(TEST_DIALECTS)('plan limits on the server (%s)', async (dialect) => {
  const available = await isDialectAvailable(dialect);
  let app: TTestApp;
  let database: ReturnType<typeof testAppDatabase>;

  beforeAll(async () => {
    if (!available) return;
    database = testAppDatabase(dialect, 'plan_limits');
    app = await startTestApp({ startWorker: false, config: { ...database.config, rateLimits: UNREACHED_RATE_LIMITS } });
  });
  afterAll(async () => {
    if (!available) return;
    await app.close();
    await database.drop();
  });

  async function ownedSite(creatorId: string, options: Parameters<typeof seedSite>[1] = {}): Promise<TSeededSite> {
    const site = await seedSite(app, options);
    await app.deps.db.updateTable('projects').set({ owner_creator_id: creatorId, workspace_id: creatorId }).where('id', '=', site.project.id).execute();
    return site;
  }

  /** A Free creator with one site whose files take all of Free's storage but `left` bytes. */
  async function creatorWithRoomFor(email: string, left: number): Promise<TTestCreator> {
    const creator = await createSignedInCreator(app.deps, { email });
    const site = await ownedSite(creator.id, { fileCount: 1 });
    // Nothing derived: the storage in use is the one original (derived bytes count once a recount finds them).
    await app.deps.storage.deletePrefix(derivedPrefix(site.files[0]?.sha256 ?? ''));
    await app.deps.db
      .updateTable('files')
      .set({ size: FREE_STORAGE - left })
      .where('id', '=', site.files[0]?.id ?? '')
      .execute();
    expect(await storageInUse(app.deps, creator.id)).toBe(FREE_STORAGE - left);
    return creator;
  }

  const init = (creator: TTestCreator | undefined, bytes: Uint8Array, settings: Record<string, boolean> = NO_PRO_FEATURES) =>
    initChunked(app.url, [{ name: 'cut.bin', bytes }], { settings }, creator ? { cookie: creator.cookie } : {});

  async function sendAll(opened: { body: TJson }, bytes: Uint8Array): Promise<void> {
    const [file] = opened.body.uploadUrls as Array<{ uploadUrl: string }>;
    expect((await sendChunk(app.url, file?.uploadUrl ?? '', 0, bytes, { last: true })).status).toBe(200);
  }

  it.skipIf(!available)('storage at upload init: exactly the bytes left is accepted, one byte more is refused before anything is stored', async () => {
    const creator = await creatorWithRoomFor('init@example.com', 1000);
    expect((await init(creator, new Uint8Array(1000))).status).toBe(201);
    const over = await init(creator, new Uint8Array(1001));
    expect(over.status).toBe(413);
    expect(over.body).toMatchObject({
      success: false,
      code: 'storage_limit_reached',
      error: BILLING_ERRORS.storage_limit_reached.message,
      plan_id: 'free',
      limit: FREE_STORAGE,
      used: FREE_STORAGE - 1000,
      requested: 1001,
    });
  });

  it.skipIf(!available)('storage again at completion: the bytes received must still fit when the site is made', async () => {
    const creator = await creatorWithRoomFor('complete@example.com', 1000);
    const exact = new Uint8Array(1000).fill(7);
    const small = new Uint8Array(1).fill(9);
    const first = await init(creator, exact);
    const second = await init(creator, small);
    expect([first.status, second.status]).toEqual([201, 201]);
    await sendAll(first, exact);
    await sendAll(second, small);
    // The first fills the storage exactly: accepted.
    const done = await completeSession(app.url, String(first.body.sessionId), [
      { fileId: String((first.body.uploadUrls as Array<{ fileId: string }>)[0]?.fileId), sha256: sha256(exact) },
    ]);
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(await storageInUse(app.deps, creator.id)).toBe(FREE_STORAGE);
    // The second was within the limit when it began; one byte over now, it is refused at completion.
    const refused = await completeSession(app.url, String(second.body.sessionId), [
      { fileId: String((second.body.uploadUrls as Array<{ fileId: string }>)[0]?.fileId), sha256: sha256(small) },
    ]);
    expect(refused.status).toBe(413);
    expect(refused.body).toMatchObject({ code: 'storage_limit_reached', used: FREE_STORAGE, requested: 1 });
  });

  it.skipIf(!available)('storage in a one-request upload: exactly the bytes left publish, one byte more is cut off and nothing is kept', async () => {
    const creator = await creatorWithRoomFor('multipart@example.com', 5000);
    const post = (size: number) =>
      fetch(`${app.url}/api/upload`, {
        method: 'POST',
        body: buildUploadForm([{ name: 'a.bin', type: 'application/octet-stream', bytes: new Uint8Array(size) }], { settings: JSON.stringify(NO_PRO_FEATURES) }),
        headers: { cookie: creator.cookie },
      });
    const over = await post(5001);
    expect(over.status).toBe(413);
    expect(((await over.json()) as TJson).code).toBe('storage_limit_reached');
    // A body that cannot fit whatever its framing is refused from its Content-Length, before it is sent.
    const declared = await rawRequest(`${app.url}/api/upload`, {
      headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(8 * 1024 * 1024), cookie: creator.cookie },
      body: Buffer.from('--x\r\n'),
      endEarly: true,
    });
    expect(declared.status).toBe(413);
    expect((JSON.parse(declared.body) as TJson).code).toBe('storage_limit_reached');
    const exact = await post(5000);
    expect(exact.status).toBe(201);
    expect(await storageInUse(app.deps, creator.id)).toBe(FREE_STORAGE);
  });

  it.skipIf(!available)('delivery size: Free’s at init for an anonymous creator, exactly allowed, one byte over refused; Pro’s is larger', async () => {
    const max = PLANS.free.maxDeliveryBytes;
    const declare = (size: number, headers: Record<string, string> = {}) =>
      initChunked(app.url, [{ name: 'big.bin', bytes: { byteLength: size } as Uint8Array }], { settings: NO_PRO_FEATURES }, headers);
    expect((await declare(max)).status).toBe(201);
    const over = await declare(max + 1);
    expect(over.status).toBe(413);
    expect(over.body).toMatchObject({ code: 'delivery_too_large', error: BILLING_ERRORS.delivery_too_large.message, limit: max, requested: max + 1 });
    const pro = await createSignedInCreator(app.deps, { email: 'big-pro@example.com' });
    await putOnPlan(app.deps, pro.id, 'pro_monthly');
    expect((await declare(max + 1, { cookie: pro.cookie })).status).toBe(201);
  });

  it.skipIf(!available)('active sites at publish: Free’s third is accepted, a fourth refused; an expired site does not count', async () => {
    const creator = await createSignedInCreator(app.deps, { email: 'sites@example.com' });
    await ownedSite(creator.id);
    await ownedSite(creator.id);
    await ownedSite(creator.id, { expiresAt: app.deps.clock.now() - 1000 });
    expect((await init(creator, new Uint8Array(10))).status).toBe(201);
    const bytes = new Uint8Array(10).fill(1);
    const third = await init(creator, bytes);
    await sendAll(third, bytes);
    const fileId = String((third.body.uploadUrls as Array<{ fileId: string }>)[0]?.fileId);
    expect((await completeSession(app.url, String(third.body.sessionId), [{ fileId, sha256: sha256(bytes) }])).status).toBe(200);
    const fourth = await init(creator, new Uint8Array(10));
    expect(fourth.status).toBe(403);
    expect(fourth.body).toMatchObject({ code: 'site_limit_reached', error: BILLING_ERRORS.site_limit_reached.message, limit: 3, used: 3, requested: 1 });
  });

  it.skipIf(!available)('Pro features: an account on Free cannot turn on comments; an anonymous creator and a Pro account can', async () => {
    const free = await createSignedInCreator(app.deps, { email: 'features@example.com' });
    const refused = await init(free, new Uint8Array(10), { enableComments: true });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'pro_feature', error: BILLING_ERRORS.pro_feature.message });
    expect((await init(undefined, new Uint8Array(10), FORM.settings)).status).toBe(201);
    const pro = await createSignedInCreator(app.deps, { email: 'features-pro@example.com' });
    await putOnPlan(app.deps, pro.id, 'pro_monthly');
    expect((await init(pro, new Uint8Array(10), { enableComments: true, enableApprovals: true, enableNotifications: false })).status).toBe(201);

    const site = await ownedSite(free.id, { settings: { enableComments: false } });
    const browser = browserSignedInAs(app, free);
    const turnOn = await browser.json(`/api/projects/${site.project.id}`, { method: 'PATCH', json: { settings: { enableComments: true } } });
    expect(turnOn.status).toBe(403);
    expect(turnOn.body).toMatchObject({ code: 'pro_feature' });
  });

  it.skipIf(!available)('usage counts the originals and what was derived from them, and active sites', async () => {
    const creator = await createSignedInCreator(app.deps, { email: 'usage@example.com' });
    const site = await ownedSite(creator.id, { fileCount: 2 });
    let derived = 0;
    for (const file of site.files) for await (const object of app.deps.storage.list(derivedPrefix(file.sha256))) derived += object.size;
    expect(derived).toBeGreaterThan(0);
    const originals = site.files.reduce((sum, f) => sum + f.size, 0);
    const usage = ZUsageResponseSchema.parse((await browserSignedInAs(app, creator).json('/api/billing/usage')).body);
    expect(usage.currentUsage).toEqual({ storage_used: originals + derived, projects_count: 1, collaborators_count: 1, api_requests_count: 0 });
    expect(await storageInUse(app.deps, creator.id)).toBe(originals + derived);
    // A site that becomes the creator's without a publish (a claim) counts at once, derived bytes too.
    const claimed = await ownedSite(creator.id, { fileCount: 1 });
    let claimedDerived = 0;
    for await (const object of app.deps.storage.list(derivedPrefix(claimed.files[0]?.sha256 ?? ''))) claimedDerived += object.size;
    const after = ZUsageResponseSchema.parse((await browserSignedInAs(app, creator).json('/api/billing/usage')).body);
    expect(after.currentUsage).toMatchObject({ storage_used: originals + derived + (claimed.files[0]?.size ?? 0) + claimedDerived, projects_count: 2 });
  });

  it.skipIf(!available)('the recount finds drift in stored usage, reports it and corrects it', async () => {
    const creator = await createSignedInCreator(app.deps, { email: 'recount@example.com' });
    await ownedSite(creator.id, { fileCount: 1 });
    const counted = await refreshUsage(app.deps, creator.id);
    await app.deps.db.updateTable('usage').set({ storage_used: 1, projects_count: 9 }).where('workspace_id', '=', creator.id).execute();
    const first = await recountUsage(app.deps);
    expect(first.drift.find((d) => d.creatorId === creator.id)).toEqual({
      creatorId: creator.id,
      stored: { storageUsed: 1, projects: 9, collaborators: 1 },
      counted: { storageUsed: Number(counted.storage_used), projects: 1, collaborators: 1 },
    });
    expect((await recountUsage(app.deps)).drift.find((d) => d.creatorId === creator.id)).toBeUndefined();
  });

  it.skipIf(!available)('a downgrade keeps every site live; changes wait until the creator is under the limits again', async () => {
    const creator = await createSignedInCreator(app.deps, { email: 'downgrade@example.com' });
    await putOnPlan(app.deps, creator.id, 'pro_monthly');
    const sites: TSeededSite[] = [];
    for (let i = 0; i < 5; i++) sites.push(await ownedSite(creator.id, { title: `Site ${i + 1}` }));
    // The plan ends (Stripe's customer.subscription.deleted): Free, with three active sites allowed.
    await app.deps.db.updateTable('subscriptions').set({ status: 'cancelled' }).where('workspace_id', '=', creator.id).execute();
    const browser = browserSignedInAs(app, creator);

    for (const site of sites) {
      const row = await app.deps.db.selectFrom('projects').select(['deleted_at', 'status']).where('id', '=', site.project.id).executeTakeFirstOrThrow();
      expect(row).toEqual({ deleted_at: null, status: 'live' });
      expect((await fetch(`${app.url}/${site.slug}`)).status).toBe(200);
    }
    const usage = ZUsageResponseSchema.parse((await browser.json('/api/billing/usage')).body);
    expect(usage).toMatchObject({ plan_id: 'free', over_limit: true, currentUsage: { projects_count: 5 } });

    const edit = await browser.json(`/api/projects/${sites[0]?.project.id}`, { method: 'PATCH', json: { title: 'Renamed' } });
    expect(edit.status).toBe(403);
    expect(edit.body).toMatchObject({ code: 'over_plan_limits', error: BILLING_ERRORS.over_plan_limits.message });

    // Deleting is the creator's choice, and stays possible; once under the limit, changes work again.
    for (const site of sites.slice(3)) {
      const removed = await browser.json(`/api/projects/${site.project.id}`, { method: 'DELETE', json: { confirmTitle: site.project.title } });
      expect(removed.status).toBe(200);
    }
    expect((await browser.json(`/api/projects/${sites[0]?.project.id}`, { method: 'PATCH', json: { title: 'Renamed' } })).status).toBe(200);
  });
});
