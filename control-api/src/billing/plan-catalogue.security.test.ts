/**
 * The pricing lists (shared/src/plans.ts) against the server: every feature a plan's list sells is
 * either refused, with the upgrade prompt, to an account on a lower plan, or works for every plan,
 * Free included. The lists and these checks read the same catalogue entries.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_ERRORS, isProFeatureSetting, PAID_PLAN_IDS, type PLAN_IDS, PLANS, PRO_FEATURE_SETTINGS, type TPaidPlanId, ZSiteSettingsSchema } from '@dropsite/shared';
import { browserSignedInAs, createSignedInCreator, type TTestCreator } from '@dropsite/testkit/control-api/accounts';
import { putOnPlan } from '@dropsite/testkit/control-api/billing';
import { seedSite, type TSeededSite } from '@dropsite/testkit/control-api/site-fixtures';
import { startTestApp, UNREACHED_RATE_LIMITS, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { initChunked } from '@dropsite/testkit/control-api/upload-session-client';

/** Every on/off switch of a site (favourites, comments, approvals, analytics, notifications). */
const SWITCHES = Object.keys(ZSiteSettingsSchema.shape).filter((key) => key.startsWith('enable'));
const ALL_OFF = Object.fromEntries(SWITCHES.map((key) => [key, false]));
const NOTIFY = { notificationEmail: 'owner@studio.example' };

/** The Pro features each paid plan's list sells (its `pro_features` lines). */
function proFeaturesSoldBy(planId: TPaidPlanId) {
  return PLANS[planId].features.flatMap((line) => (line.comingSoon === undefined && line.sells.kind === 'pro_features' ? line.sells.features : []));
}

describe('what each plan sells is what the server does', () => {
  let app: TTestApp;
  let count = 0;

  beforeAll(async () => {
    app = await startTestApp({ startWorker: false, config: { rateLimits: UNREACHED_RATE_LIMITS } });
  });
  afterAll(async () => {
    await app.close();
  });

  async function creatorOn(planId: (typeof PLAN_IDS)[number]): Promise<TTestCreator> {
    count += 1;
    const creator = await createSignedInCreator(app.deps, { email: `catalogue-${count}@studio.example` });
    if (planId !== 'free') await putOnPlan(app.deps, creator.id, planId);
    return creator;
  }

  async function ownedSite(creatorId: string): Promise<TSeededSite> {
    const site = await seedSite(app, { settings: ALL_OFF, fileCount: 2 });
    await app.deps.db.updateTable('projects').set({ owner_creator_id: creatorId, workspace_id: creatorId }).where('id', '=', site.project.id).execute();
    return site;
  }

  const publish = (creator: TTestCreator, settings: Record<string, unknown>) =>
    initChunked(app.url, [{ name: 'proof.jpg', bytes: new Uint8Array(16) }], { settings: { ...ALL_OFF, ...NOTIFY, ...settings } }, { cookie: creator.cookie });

  it('each paid plan sells Pro features only the catalogue gates, and every gated feature is sold', () => {
    for (const planId of PAID_PLAN_IDS) {
      for (const feature of proFeaturesSoldBy(planId)) expect(PLANS[planId].proFeatures, `${planId} sells ${feature}`).toBe(true);
    }
    const sold = new Set(PAID_PLAN_IDS.flatMap((planId) => proFeaturesSoldBy(planId)));
    expect([...sold].sort()).toEqual(Object.keys(PRO_FEATURE_SETTINGS).sort());
    expect(PLANS.free.proFeatures).toBe(false);
  });

  it('every Pro feature a plan sells is refused to a Free account, publishing or editing, with the upgrade prompt; the plan that sells it allows it', async () => {
    const free = await creatorOn('free');
    const site = await ownedSite(free.id);
    const owner = browserSignedInAs(app, free);
    for (const planId of PAID_PLAN_IDS) {
      const buyer = await creatorOn(planId);
      for (const feature of proFeaturesSoldBy(planId)) {
        const setting = PRO_FEATURE_SETTINGS[feature];
        const refused = await publish(free, { [setting]: true });
        expect(refused.status, `${feature} at publish on Free`).toBe(403);
        expect(refused.body).toMatchObject({ code: 'pro_feature', error: BILLING_ERRORS.pro_feature.message, plan_id: 'free' });
        const edit = await owner.json(`/api/projects/${site.project.id}`, { method: 'PATCH', json: { settings: { [setting]: true, ...NOTIFY } } });
        expect(edit.status, `${feature} turned on later on Free`).toBe(403);
        expect(edit.body).toMatchObject({ code: 'pro_feature' });
        expect((await publish(buyer, { [setting]: true })).status, `${feature} on ${planId}`).toBe(201);
      }
    }
  });

  it('every other switch (favourites, analytics) works on Free, at publish and later', async () => {
    const free = await creatorOn('free');
    const site = await ownedSite(free.id);
    const owner = browserSignedInAs(app, free);
    const open = SWITCHES.filter((key) => !isProFeatureSetting(key));
    expect(open).toEqual(expect.arrayContaining(['enableFavorites', 'enableAnalytics']));
    for (const setting of open) {
      expect((await publish(free, { [setting]: true })).status, `${setting} at publish on Free`).toBe(201);
      const edit = await owner.json(`/api/projects/${site.project.id}`, { method: 'PATCH', json: { settings: { [setting]: true } } });
      expect(edit.status, `${setting} turned on later on Free`).toBe(200);
    }
  });

  it('what Free’s list promises works on Free: daily charts, CSV export, replacing a file, a password and an expiry date', async () => {
    const free = await creatorOn('free');
    const site = await ownedSite(free.id);
    const owner = browserSignedInAs(app, free);
    expect((await owner.json(`/api/projects/${site.project.id}/analytics/daily?days=30`)).status).toBe(200);
    const csv = await owner.fetch(`/api/projects/${site.project.id}/engagement.csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(Buffer.from('second version'.repeat(20)))], { type: 'image/jpeg' }), 'v2.jpg');
    const replaced = await owner.json<{ project: { files: Array<{ id: string; version: number }> } }>(`/api/projects/${site.project.id}/files/${site.files[0]!.id}`, {
      method: 'PUT',
      body: form,
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.project.files.find((f) => f.id === site.files[0]!.id)?.version).toBe(2);
    const expiresAt = new Date(app.deps.clock.now() + 7 * 86_400_000).toISOString();
    expect((await owner.json(`/api/projects/${site.project.id}`, { method: 'PATCH', json: { password: 'proof-sheet-2026', expiresAt } })).status).toBe(200);
  });
});
