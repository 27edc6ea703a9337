/**
 * A plan's number of active sites holds under parallel requests: publishes into an account one site
 * short of its limit, sent all at once, give exactly one site (the rest the plan-limit error, with
 * nothing created), and claiming an anonymous session's sites into an account that has no room for
 * them is refused the same way, moving nothing, until the account has room.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BILLING_ERRORS, PLANS } from '@dropsite/shared';
import { browserSignedInAs, createSignedInCreator, type TTestCreator } from '@dropsite/testkit/control-api/accounts';
import { putOnPlan } from '@dropsite/testkit/control-api/billing';
import { buildUploadForm } from '@dropsite/testkit/control-api/fixtures';
import { createBrowser, seedSite } from '@dropsite/testkit/control-api/site-fixtures';
import { isDialectAvailable, TEST_DIALECTS, testAppDatabase } from '@dropsite/testkit/control-api/test-database';
import { startTestApp, UNREACHED_RATE_LIMITS, type TTestApp } from '@dropsite/testkit/control-api/test-app';

const FREE_SITES = PLANS.free.limits.projects;
const PARALLEL = 6;

describe.each(TEST_DIALECTS)('plan limits under parallel requests (%s)', async (dialect) => {
  const available = await isDialectAvailable(dialect);
  let app: TTestApp;
  let database: ReturnType<typeof testAppDatabase>;

  beforeAll(async () => {
    if (!available) return;
    database = testAppDatabase(dialect, 'plan_races');
    app = await startTestApp({ startWorker: false, config: { ...database.config, rateLimits: UNREACHED_RATE_LIMITS } });
  });
  afterAll(async () => {
    if (!available) return;
    await app.close();
    await database.drop();
  });

  /** A Free account with `sites` active sites. */
  async function freeAccountWith(email: string, sites: number): Promise<TTestCreator> {
    const creator = await createSignedInCreator(app.deps, { email });
    for (let i = 0; i < sites; i++) {
      const site = await seedSite(app, { fileCount: 1 });
      await app.deps.db.updateTable('projects').set({ owner_creator_id: creator.id, workspace_id: creator.id }).where('id', '=', site.project.id).execute();
    }
    return creator;
  }

  const sitesOf = async (creatorId: string) =>
    (await app.deps.db.selectFrom('projects').select('id').where('owner_creator_id', '=', creatorId).where('deleted_at', 'is', null).execute()).length;

  it.skipIf(!available)(`${PARALLEL} publishes at once into an account one site short of its limit: exactly one is published`, async () => {
    const creator = await freeAccountWith(`race-${dialect}@example.com`, FREE_SITES - 1);
    const browser = browserSignedInAs(app, creator);
    const answers = await Promise.all(
      Array.from({ length: PARALLEL }, async (_, i) => {
        const form = buildUploadForm([{ name: `notes-${i}.txt`, type: 'text/plain', bytes: new TextEncoder().encode(`parallel ${i}`) }], { title: `Parallel ${i}` });
        const res = await browser.fetch('/api/upload', { method: 'POST', body: form });
        return { status: res.status, body: (await res.json()) as Record<string, unknown> };
      }),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(1);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused).toHaveLength(PARALLEL - 1);
    for (const answer of refused) {
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({ code: 'site_limit_reached', error: BILLING_ERRORS.site_limit_reached.message, limit: FREE_SITES, requested: 1 });
    }
    expect(await sitesOf(creator.id)).toBe(FREE_SITES);
  });

  it.skipIf(!available)('claiming sites past the account’s limit is refused and moves nothing; with room they all move', async () => {
    const creator = await freeAccountWith(`claim-over-${dialect}@example.com`, FREE_SITES - 1);
    // A browser that published two sites before signing in.
    const browser = createBrowser(app);
    for (const title of ['Before sign-in 1', 'Before sign-in 2']) {
      const form = buildUploadForm([{ name: 'notes.txt', type: 'text/plain', bytes: new TextEncoder().encode(title) }], { title });
      const res = await browser.fetch('/api/upload', { method: 'POST', body: form });
      expect(res.status).toBe(201);
      await res.arrayBuffer();
    }
    const signedIn = browserSignedInAs(app, creator);
    for (const [name, value] of browser.cookies) signedIn.cookies.set(name, value);

    const refused = await signedIn.json('/api/creators/claim', { method: 'POST', json: {} });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'site_limit_reached', error: BILLING_ERRORS.site_limit_reached.message, limit: FREE_SITES, used: FREE_SITES - 1, requested: 2 });
    expect(await sitesOf(creator.id)).toBe(FREE_SITES - 1);
    const sessionId = String(browser.cookies.get('dropsite_anon')?.split('.')[0]);
    const session = await app.deps.db.selectFrom('anonymous_sessions').select('claimed_by').where('id', '=', sessionId).executeTakeFirstOrThrow();
    expect(session.claimed_by).toBeNull();

    // With room (a plan with more sites), the same browser claims them all.
    await putOnPlan(app.deps, creator.id, 'pro_monthly');
    const claimed = await signedIn.json('/api/creators/claim', { method: 'POST', json: {} });
    expect(claimed.status).toBe(200);
    expect(claimed.body).toMatchObject({ success: true, claimed: 2 });
    expect(await sitesOf(creator.id)).toBe(FREE_SITES + 1);
  });
});
