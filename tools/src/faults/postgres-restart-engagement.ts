/**
 * postgres-restart-engagement: PostgreSQL goes away (every connection cut, new ones refused) for a
 * few seconds and comes back, as a restart does, while visitors comment, favourite and send view
 * beacons. Every refusal is 503 with Retry-After, never 500; every comment or favourite the API
 * acknowledged is in the database afterwards.
 */
import sharp from 'sharp';
import { httpClient, publish, seconds, signedUpCreator, waitLive, type THttpClient } from './http-client.ts';
import { delay, expectations, type TFaultRow } from './row.ts';

const VISITORS = 6;
const OUTAGE_MS = 5_000;
const VISITOR_COOKIE = /^([A-Za-z0-9_-]{22})\.[0-9a-z]{1,9}\.[A-Za-z0-9_-]{22}$/;

type TOperation = 'comment' | 'favourite' | 'view';

interface TCall {
  op: TOperation;
  phase: 'before' | 'during' | 'after';
  status: number;
  retryAfter: string | null;
  /** The comment's text, or the favourited file. */
  detail: string;
  visitorId: string;
}

function visitorIdOf(client: THttpClient): string {
  for (const value of client.cookies.values()) {
    const match = VISITOR_COOKIE.exec(value);
    if (match) return match[1] as string;
  }
  return '';
}

export const postgresRestartEngagement: TFaultRow = {
  name: 'postgres-restart-engagement',
  expectation: 'PostgreSQL restarted under comments, favourites and view beacons: every error is 503 with Retry-After, never 500; every acknowledged write is stored',
  simulates: `Every connection of the stack to PostgreSQL goes through a TCP proxy; it cuts them all and refuses new ones for ${OUTAGE_MS / 1000} s (what clients of a restarting server see), then lets them through again, while ${VISITORS} visitors (own cookies each, through the edge) comment, favourite and send view beacons back to back.`,
  async run(faults, log) {
    const { stack, postgres } = faults;
    const { check, outcome } = expectations();
    const creator = await signedUpCreator(stack.url, stack.env.DATA_DIR!, `faults-engagement-${Date.now()}@example.com`);
    const files = await Promise.all(
      [0, 1, 2].map(async (i) => ({
        name: `look-${i + 1}.jpg`,
        type: 'image/jpeg',
        bytes: await sharp({ create: { width: 900, height: 600, channels: 3, background: { r: 60 * i, g: 120, b: 200 - 50 * i } } })
          .jpeg()
          .toBuffer(),
      })),
    );
    const published = await publish(creator, 'Fault: PostgreSQL restart', files);
    if (!check(published.status === 201 && published.slug !== undefined, `the publish answered ${published.status}`)) return outcome(JSON.stringify(published.body));
    const slug = published.slug as string;
    check((await waitLive(stack.url, slug, 60_000)) !== undefined, 'the site did not become live');
    const [project] = await faults.query<{ id: string }>('select id from projects where slug = $1', [slug]);
    const projectId = project?.id ?? '';
    const fileIds = (await faults.query<{ id: string }>('select id from files where project_id = $1 order by position', [projectId])).map((r) => r.id);

    const visitors = Array.from({ length: VISITORS }, () => httpClient(stack.url));
    for (const visitor of visitors) await visitor.request(`/api/engagement/state?projectId=${projectId}`);
    const calls: TCall[] = [];
    let phase: TCall['phase'] = 'before';
    let stop = false;
    const load = async (visitor: THttpClient, index: number) => {
      const visitorId = visitorIdOf(visitor);
      for (let i = 0; !stop; i++) {
        const op: TOperation = (['comment', 'favourite', 'view'] as const)[(i + index) % 3] as TOperation;
        const fileId = fileIds[(i + index) % fileIds.length] as string;
        const startedIn = phase;
        let detail = fileId;
        let res: Response | undefined;
        try {
          if (op === 'comment') {
            detail = `Fault run comment ${index}-${i} at ${Date.now()}`;
            res = await visitor.request('/api/comments', { method: 'POST', json: { projectId, fileId, commentText: detail }, timeoutMs: 15_000 });
          } else if (op === 'favourite') {
            res = await visitor.request('/api/favorites', { method: 'POST', json: { projectId, fileId }, timeoutMs: 15_000 });
          } else {
            res = await visitor.request('/api/analytics/view', { method: 'POST', json: { projectId, fileId }, timeoutMs: 15_000 });
          }
          await res.arrayBuffer();
        } catch {
          res = undefined;
        }
        calls.push({ op, phase: startedIn, status: res?.status ?? 0, retryAfter: res?.headers.get('retry-after') ?? null, detail, visitorId });
        await delay(40);
      }
    };
    const running = visitors.map((visitor, index) => load(visitor, index));
    await delay(2_000);
    log(`  PostgreSQL cut for ${OUTAGE_MS / 1000} s`);
    await postgres.down();
    phase = 'during';
    await delay(OUTAGE_MS);
    await postgres.up();
    phase = 'after';
    log('  PostgreSQL back');
    await delay(6_000);
    stop = true;
    await Promise.all(running);

    const failures = calls.filter((c) => c.status < 200 || c.status >= 300);
    const not503 = failures.filter((c) => c.status !== 503);
    const noRetryAfter = failures.filter((c) => c.status === 503 && c.retryAfter === null);
    const byStatus = new Map<number, number>();
    for (const c of failures) byStatus.set(c.status, (byStatus.get(c.status) ?? 0) + 1);
    check(
      failures.some((c) => c.phase === 'during'),
      'no call failed while PostgreSQL was down: the outage did not reach the API',
    );
    check(
      not503.length === 0,
      `errors other than 503: ${[...byStatus]
        .filter(([s]) => s !== 503)
        .map(([s, n]) => `${n} × ${s === 0 ? 'no answer' : s}`)
        .join(', ')}`,
    );
    check(noRetryAfter.length === 0, `${noRetryAfter.length} of ${failures.length} 503s without Retry-After`);

    // Every acknowledged write is stored.
    const ackedComments = calls.filter((c) => c.op === 'comment' && c.status === 201);
    const ackedFavourites = calls.filter((c) => c.op === 'favourite' && c.status === 200);
    const storedComments = new Set((await faults.query<{ body: string }>('select body from comments where project_id = $1', [projectId])).map((r) => r.body));
    const storedFavourites = new Set(
      (await faults.query<{ visitor_id: string; file_id: string }>('select visitor_id, file_id from favorites where project_id = $1', [projectId])).map(
        (r) => `${r.visitor_id}/${r.file_id}`,
      ),
    );
    const lostComments = ackedComments.filter((c) => !storedComments.has(c.detail));
    const lostFavourites = ackedFavourites.filter((c) => !storedFavourites.has(`${c.visitorId}/${c.detail}`));
    check(lostComments.length === 0, `${lostComments.length} acknowledged comments are not stored`);
    check(lostFavourites.length === 0, `${lostFavourites.length} acknowledged favourites are not stored`);
    for (const op of ['comment', 'favourite', 'view'] as const) {
      check(
        calls.some((c) => c.op === op && c.phase === 'after' && c.status < 300),
        `no ${op} succeeded after PostgreSQL returned`,
      );
    }
    const dead = stack.processes.filter((p) => p.child.exitCode !== null || p.child.signalCode !== null);
    check(dead.length === 0, `processes gone: ${dead.map((p) => p.role).join(', ')}`);
    for (const p of dead) log(`  ${p.role} ended with:\n${p.output().slice(-3000)}`);
    const readiness = await Promise.all(
      stack.opsUrls.map((ops) =>
        fetch(`${ops}/readyz`).then(
          (r) => r.status,
          () => 0,
        ),
      ),
    );
    check(
      readiness.every((s) => s === 200),
      `not ready again: ${readiness.map((s, i) => `${['api-1', 'api-2', 'builder-1', 'builder-2'][i]} ${s}`).join(', ')}`,
    );

    const during = calls.filter((c) => c.phase === 'during');
    return outcome(
      `${calls.length} calls by ${VISITORS} visitors; during the ${seconds(OUTAGE_MS)} outage ${during.filter((c) => c.status < 300).length} ok, ${during.filter((c) => c.status === 503).length} × 503; errors by status: ${[...byStatus].map(([s, n]) => `${s === 0 ? 'no answer' : s} × ${n}`).join(', ') || 'none'} (${failures.length - noRetryAfter.length - not503.length} with Retry-After); acknowledged and stored: ${ackedComments.length - lostComments.length}/${ackedComments.length} comments, ${ackedFavourites.length - lostFavourites.length}/${ackedFavourites.length} favourites`,
      {
        calls: calls.length,
        errors500: byStatus.get(500) ?? 0,
        not503: not503.length,
        noRetryAfter: noRetryAfter.length,
        lostComments: lostComments.length,
        lostFavourites: lostFavourites.length,
      },
    );
  },
};
