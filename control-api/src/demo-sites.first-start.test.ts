/**
 * The first start of a real API process (control-api/src/main.ts) on an empty data folder, demo
 * sites on: from the moment it says it is listening, every demo's address answers a page (the
 * holding page that refreshes itself, 503 with Retry-After, until the demo is built, then the demo
 * itself), never the 404 page, while the demos are built in the background.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TEMPLATE_CATALOGUE, TEMPLATE_IDS } from '@dropsite/shared';
import { startApiProcess, type TApiProcess } from '@dropsite/testkit/control-api/api-process';

const DEMO_PATHS = TEMPLATE_IDS.map((id) => TEMPLATE_CATALOGUE[id].demoPath);
/** Long enough for the first demo to be built on a busy machine (its sample files are made first). */
const FIRST_BUILT_WITHIN_MS = 240_000;

describe('demo sites at the first start', () => {
  let api: TApiProcess | undefined;
  let dataDir = '';
  afterAll(async () => {
    api?.child.kill('SIGTERM');
    if (api && api.child.exitCode === null) await new Promise((resolve) => api?.child.once('exit', resolve));
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('answers every demo address with a page from the moment it listens: the holding page until it is built, then the demo', {
    timeout: FIRST_BUILT_WITHIN_MS + 30_000,
  }, async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'dropsite-first-start-'));
    api = await startApiProcess(dataDir, { DEMO_SITES: 'true' });
    const started = performance.now();
    const seen = new Map<string, Set<number>>(DEMO_PATHS.map((p) => [p, new Set()]));
    const answer = async (demoPath: string): Promise<number> => {
      const res = await fetch(`${api!.url}${demoPath}`);
      const html = await res.text();
      seen.get(demoPath)!.add(res.status);
      if (res.status === 503) {
        expect(res.headers.get('retry-after'), demoPath).toBe('5');
        expect(html, demoPath).toContain('This demo is being prepared');
      }
      return res.status;
    };

    // The first answers, right after 'listening': none is the 404 page.
    const first = await Promise.all(DEMO_PATHS.map(answer));
    expect(first.filter((status) => status === 404)).toEqual([]);

    // Then each, again and again, until a demo is up (the others follow one by one): never a 404 on the way.
    await expect
      .poll(async () => (await Promise.all(DEMO_PATHS.map(answer))).filter((status) => status === 200).length, { timeout: FIRST_BUILT_WITHIN_MS, interval: 1000 })
      .toBeGreaterThan(0);
    await Promise.all(DEMO_PATHS.map(answer));
    for (const [demoPath, statuses] of seen)
      expect(
        [...statuses].filter((s) => s !== 200 && s !== 202 && s !== 503),
        demoPath,
      ).toEqual([]);
    const live = [...seen].filter(([, statuses]) => statuses.has(200)).length;
    console.log(
      `${live} of ${DEMO_PATHS.length} demo sites built ${((performance.now() - started) / 1000).toFixed(0)} s after the server listened; the rest answered the holding page`,
    );
  });
});
