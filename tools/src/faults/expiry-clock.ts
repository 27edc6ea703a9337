/**
 * expiry-clock: the clock passes a site's expiry. From that instant its page, its files and its
 * engagement calls answer 410 Gone everywhere: through the edge (which served the page from its
 * public copy before the expiry was set) and on each API process.
 */
import sharp from 'sharp';
import { httpClient, publish, seconds, signedUpCreator, waitLive } from './http-client.ts';
import { delay, expectations, type TFaultRow } from './row.ts';

/** How far ahead the expiry is set. */
const EXPIRES_IN_MS = 6_000;

export const expiryClock: TFaultRow = {
  name: 'expiry-clock',
  expectation: "the clock past a site's expiry: its page, files and engagement calls answer 410 through the edge and on both APIs",
  simulates: `A live public site (its page served by the edge from the store) is given an expiry ${EXPIRES_IN_MS / 1000} s ahead; the run waits past it on the real clock and asks for the page, its files (download, thumbnail, the site's ZIP, its link picture) and its engagement calls (state, comments, favourite, comment, view beacon) through the edge URL and each API URL.`,
  async run(faults) {
    const { stack } = faults;
    const { check, outcome } = expectations();
    const creator = await signedUpCreator(stack.url, stack.env.DATA_DIR!, `faults-expiry-${Date.now()}@example.com`);
    const photo = await sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 200, g: 80, b: 40 } } })
      .jpeg()
      .toBuffer();
    const published = await publish(creator, 'Fault: expiry', [{ name: 'proof.jpg', type: 'image/jpeg', bytes: photo }]);
    if (!check(published.status === 201 && published.slug !== undefined, `the publish answered ${published.status}`)) return outcome(JSON.stringify(published.body));
    const slug = published.slug as string;
    check((await waitLive(stack.url, slug, 60_000)) !== undefined, 'the site did not become live');
    const [row] = await faults.query<{ project_id: string; file_id: string }>(
      'select p.id as project_id, f.id as file_id from projects p join files f on f.project_id = p.id where p.slug = $1',
      [slug],
    );
    const projectId = row?.project_id ?? '';
    const fileId = row?.file_id ?? '';
    // The edge serves the public page from the store before any expiry is set.
    const deadline = Date.now() + 20_000;
    let fromEdge = false;
    while (!fromEdge && Date.now() < deadline) {
      fromEdge = (await fetch(`${stack.url}/${slug}`)).headers.get('x-request-id') === null;
      if (!fromEdge) await delay(200);
    }
    check(fromEdge, 'the edge never served the public page from the store');

    const expiresAt = Date.now() + EXPIRES_IN_MS;
    const patched = await creator.request(`/api/projects/${projectId}`, { method: 'PATCH', json: { expiresAt: new Date(expiresAt).toISOString() } });
    check(patched.status === 200, `setting the expiry answered ${patched.status}`);
    // Open until the expiry: the page and its file (a 410 is right only once the expiry has passed, as it
    // may on a slow machine before these answers arrive).
    let lastAsked = 0;
    for (const path of [`/${slug}`, `/api/files/${fileId}?mode=download`]) {
      lastAsked = Date.now();
      const before = await fetch(`${stack.url}${path}`);
      await before.arrayBuffer();
      check(before.status === 200 || (before.status === 410 && Date.now() >= expiresAt), `before the expiry ${path} answered ${before.status}`);
    }
    // Past the expiry, and past the edge's keeping of a page it served just before it (EDGE_CACHE_SECONDS).
    const edgeKeepsMs = Number(stack.env.EDGE_CACHE_SECONDS ?? 0) * 1000;
    await delay(Math.max(0, Math.max(expiresAt, lastAsked + edgeKeepsMs) - Date.now() + 250));

    const asks: Array<{ what: string; path: string; method?: string; json?: unknown; headers?: Record<string, string> }> = [
      { what: 'page', path: `/${slug}` },
      { what: 'page (br)', path: `/${slug}`, headers: { 'accept-encoding': 'br, gzip' } },
      { what: 'page (HEAD)', path: `/${slug}`, method: 'HEAD' },
      { what: 'download', path: `/api/files/${fileId}?mode=download` },
      { what: 'thumbnail', path: `/api/files/${fileId}?mode=preview&size=300` },
      { what: 'site ZIP', path: `/api/sites/${slug}/download` },
      { what: 'link picture', path: `/${slug}/og.png` },
      { what: 'engagement state', path: `/api/engagement/state?projectId=${projectId}` },
      { what: 'comments', path: `/api/comments?projectId=${projectId}&fileId=${fileId}` },
      { what: 'favourite', path: '/api/favorites', method: 'POST', json: { projectId, fileId } },
      { what: 'comment', path: '/api/comments', method: 'POST', json: { projectId, fileId, commentText: 'Too late?' } },
      { what: 'view beacon', path: '/api/analytics/view', method: 'POST', json: { projectId, fileId } },
    ];
    const bases: Array<[string, string]> = [
      ['edge', stack.url],
      ['api-1', stack.apiUrls[0] as string],
      ['api-2', stack.apiUrls[1] as string],
    ];
    const wrong: string[] = [];
    let answered = 0;
    for (const [where, base] of bases) {
      // A visitor of its own per way in, speaking from the site's origin as its page does.
      const visitor = httpClient(base, new URL(stack.url).origin);
      for (const ask of asks) {
        const res = await visitor.request(ask.path, { method: ask.method ?? 'GET', json: ask.json, headers: ask.headers });
        await res.arrayBuffer();
        answered++;
        if (res.status !== 410) wrong.push(`${where} ${ask.what} ${res.status}`);
      }
    }
    check(wrong.length === 0, `not 410 after the expiry: ${wrong.join(', ')}`);
    return outcome(
      `expiry set ${seconds(EXPIRES_IN_MS)} ahead (page and file 200 until then); after it ${answered - wrong.length}/${answered} answers 410 (${asks.length} calls: page, files, engagement × edge, api-1, api-2)`,
      { answered, wrong: wrong.length },
    );
  },
};
