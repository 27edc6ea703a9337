/**
 * redis-down-publish: Redis (the build queue and the shared limits) stops answering while creators
 * publish. Each publish is answered at once, either refused with 503 (under 2 s) or accepted; once
 * Redis is back every accepted publish goes live: no job is lost.
 */
import sharp from 'sharp';
import { httpClient, publish, seconds, siteStatus, waitLive, type TPublishAnswer } from './http-client.ts';
import { delay, expectations, type TFaultRow } from './row.ts';

const OUTAGE_MS = 6_000;
/** A refusal slower than this is not "fast": the creator's page would look hung. */
const FAST_REFUSAL_MS = 2_000;
/** Every accepted publish is live this long after Redis is back at the latest. */
const LIVE_DEADLINE_MS = 90_000;

export const redisDownPublish: TFaultRow = {
  name: 'redis-down-publish',
  expectation: 'Redis unreachable while publishing: each publish is a fast 503 (< 2 s) or accepted; after Redis returns every accepted publish goes live',
  simulates: `Every connection of the stack to Redis goes through a TCP proxy; for ${OUTAGE_MS / 1000} s it cuts them all and refuses new ones (as a stopped Redis would), then lets them through again. Publishes (one photo each, through the edge) run back to back from a moment before the cut to a few seconds after.`,
  async run(faults, log) {
    const { stack, redis } = faults;
    const { check, outcome } = expectations();
    const photo = await sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 30, g: 90, b: 160 } } })
      .jpeg()
      .toBuffer();
    const creator = httpClient(stack.url);
    const answers: Array<TPublishAnswer & { phase: 'before' | 'during' | 'after' }> = [];
    let phase: 'before' | 'during' | 'after' = 'before';
    let stop = false;
    const publisher = async (lane: number) => {
      for (let i = 0; !stop; i++) {
        const startedIn = phase;
        const answer = await publish(creator, `Fault: Redis down, lane ${lane} #${i}`, [{ name: 'cover.jpg', type: 'image/jpeg', bytes: photo }]).catch(
          (error: unknown): TPublishAnswer => ({ status: 0, ms: 0, body: { error: String(error) }, retryAfter: null }),
        );
        // A publish that began before the cut and ended during it counts as during.
        answers.push({ ...answer, phase: startedIn === 'before' && phase !== 'before' ? 'during' : startedIn });
        await delay(150);
      }
    };
    const lanes = [publisher(1), publisher(2)];
    await delay(1_000);
    log(`  Redis cut for ${OUTAGE_MS / 1000} s`);
    await redis.down();
    phase = 'during';
    const cutAt = Date.now();
    await delay(OUTAGE_MS);
    await redis.up();
    const backAt = Date.now();
    phase = 'after';
    log(`  Redis back after ${seconds(backAt - cutAt)}`);
    await delay(4_000);
    stop = true;
    await Promise.all(lanes);

    const accepted = answers.filter((a) => a.status === 201 && a.slug !== undefined);
    const refused = answers.filter((a) => a.status === 503);
    const slowRefusals = refused.filter((a) => a.ms >= FAST_REFUSAL_MS);
    const others = answers.filter((a) => a.status !== 201 && a.status !== 503);
    const noRetryAfter = refused.filter((a) => a.retryAfter === null);
    check(answers.filter((a) => a.phase === 'during').length > 0, 'no publish ran while Redis was down');
    check(refused.length + accepted.filter((a) => a.phase === 'during').length > 0, 'no publish was answered while Redis was down');
    check(
      slowRefusals.length === 0,
      `${slowRefusals.length} refusals took ${FAST_REFUSAL_MS / 1000} s or more (slowest ${seconds(Math.max(0, ...slowRefusals.map((a) => a.ms)))})`,
    );
    check(noRetryAfter.length === 0, `${noRetryAfter.length} of ${refused.length} refusals without Retry-After`);
    check(others.length === 0, `answers other than 201 or 503: ${others.map((a) => `${a.status} ${JSON.stringify(a.body).slice(0, 120)}`).join('; ')}`);

    // Every accepted publish, whenever it was accepted, goes live once Redis is back.
    const notLive: string[] = [];
    let slowestLiveMs = 0;
    await Promise.all(
      accepted.map(async (a) => {
        const ms = await waitLive(stack.url, a.slug as string, Math.max(1_000, LIVE_DEADLINE_MS - (Date.now() - backAt)));
        if (ms === undefined) notLive.push(`${a.slug} (${a.phase}, ${await siteStatus(stack.url, a.slug as string)})`);
        else slowestLiveMs = Math.max(slowestLiveMs, Date.now() - backAt);
      }),
    );
    check(notLive.length === 0, `${notLive.length} accepted publishes not live ${seconds(LIVE_DEADLINE_MS)} after Redis returned: ${notLive.slice(0, 5).join(', ')}`);
    const dead = stack.processes.filter((p) => p.child.exitCode !== null || p.child.signalCode !== null).map((p) => p.role);
    check(dead.length === 0, `processes gone: ${dead.join(', ')}`);

    const count = (p: string, status: number) => answers.filter((a) => a.phase === p && a.status === status).length;
    const slowest = Math.max(0, ...refused.map((a) => a.ms));
    return outcome(
      `${answers.length} publishes: before ${count('before', 201)} accepted; during the ${seconds(OUTAGE_MS)} outage ${count('during', 201)} accepted, ${count('during', 503)} × 503 (slowest ${seconds(slowest)}, ${refused.length - noRetryAfter.length} of all ${refused.length} refusals with Retry-After); after ${count('after', 201)} accepted, ${count('after', 503)} × 503; all ${accepted.length - notLive.length}/${accepted.length} accepted live (last ${seconds(slowestLiveMs)} after Redis returned)`,
      { accepted: accepted.length, refused: refused.length, slowestRefusalMs: slowest, notLive: notLive.length, others: others.length },
    );
  },
};
