/**
 * api-kill-upload: an API process is killed with SIGKILL while a chunk of a resumable upload is on its
 * way to it. The creator's client asks the other API process where the upload stands, sends what is
 * missing there and completes: the published file's bytes are the original's.
 */
import { CHUNK_SIZE } from '@dropsite/shared';
import { makeBytes } from '@dropsite/testkit/bytes';
import { chunkOf, completeSession, initChunked, rawRequest, sendChunk, sessionStatus } from '@dropsite/testkit/control-api/upload-session-client';
import { seconds, sha256, waitLive } from './http-client.ts';
import { expectations, kill9, type TFaultRow } from './row.ts';

const FILE_BYTES = 2 * CHUNK_SIZE + 777;

export const apiKillUpload: TFaultRow = {
  name: 'api-kill-upload',
  expectation: 'kill -9 of an API mid-chunk; the upload resumes on the other API and the published file is byte-identical (SHA-256)',
  simulates: `api-1 is killed with SIGKILL while half of chunk 1 of a ${(FILE_BYTES / 2 ** 20).toFixed(1)} MiB chunked upload has reached it; the client then asks api-2 for the session's status, sends the missing chunks there and completes there. api-1 is started again afterwards.`,
  async run(faults, log) {
    const { stack } = faults;
    const [api1, api2] = stack.apiUrls as [string, string];
    const { check, outcome } = expectations();
    const bytes = makeBytes(FILE_BYTES);
    const totalChunks = Math.ceil(FILE_BYTES / CHUNK_SIZE);

    const init = await initChunked(api1, [{ name: 'final-cut.mov', bytes, type: 'video/quicktime' }], { title: 'Fault: API killed mid-upload' });
    if (!check(init.status === 201, `init on api-1 answered ${init.status}`)) return outcome(JSON.stringify(init.body));
    const sessionId = String(init.body.sessionId);
    const slug = String(init.body.projectSlug);
    const file = (init.body.uploadUrls as Array<{ fileId: string; uploadUrl: string }>)[0];
    if (!file) return outcome('init named no file');
    check((await sendChunk(api1, file.uploadUrl, 0, chunkOf(bytes, 0))).status === 200, 'chunk 0 was not taken by api-1');

    // Half of chunk 1 is sent, the rest never comes: api-1 dies holding it.
    const cut = rawRequest(`${api1}${file.uploadUrl}?chunk=1`, {
      headers: { 'content-length': String(CHUNK_SIZE), 'content-type': 'application/octet-stream' },
      body: chunkOf(bytes, 1).subarray(0, CHUNK_SIZE / 2),
      endEarly: true,
    }).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 500));
    log('  kill -9 api-1 with half of chunk 1 received');
    await kill9(faults, 'api-1');
    await cut;

    const resumedAt = performance.now();
    const status = await sessionStatus(api2, sessionId);
    const session = status.body.session as { status?: string; files?: Array<{ fileId: string; receivedChunks: number[] }> } | undefined;
    const received = session?.files?.find((f) => f.fileId === file.fileId)?.receivedChunks ?? [];
    check(status.status === 200 && session?.status === 'open', `api-2 answered the session's status ${status.status} (${session?.status ?? 'no session'})`);
    check(!received.includes(1), `api-2 lists the cut chunk 1 as received (${received.join(',')})`);
    for (let i = 0; i < totalChunks; i++) {
      if (received.includes(i)) continue;
      const sent = await sendChunk(api2, file.uploadUrl, i, chunkOf(bytes, i));
      check(sent.status === 200, `chunk ${i} to api-2 answered ${sent.status}: ${JSON.stringify(sent.body)}`);
    }
    const done = await completeSession(api2, sessionId, [{ fileId: file.fileId, sha256: sha256(bytes) }]);
    check(done.status === 200, `complete on api-2 answered ${done.status}: ${JSON.stringify(done.body)}`);
    const resumedMs = performance.now() - resumedAt;

    const liveMs = await waitLive(stack.url, slug, 60_000);
    check(liveMs !== undefined, 'the site did not become live within 60 s');
    // The published file as a visitor downloads it, through the edge.
    const download = await fetch(`${stack.url}/api/files/${file.fileId}?mode=download`);
    const downloaded = new Uint8Array(await download.arrayBuffer());
    const identical = download.status === 200 && sha256(downloaded) === sha256(bytes);
    check(identical, `the downloaded file (${download.status}, ${downloaded.byteLength} bytes) differs from the original (${bytes.byteLength} bytes)`);

    const restartAt = performance.now();
    await faults.stack.restart('api-1');
    const back = await fetch(`${api1}/api/health`).then(
      (r) => r.status,
      () => 0,
    );
    check(back === 200, `api-1 did not come back (${back})`);
    return outcome(
      `${(FILE_BYTES / 2 ** 20).toFixed(1)} MiB, ${totalChunks} chunks; api-2 listed chunks [${received.join(',')}] after the kill; resumed and completed on api-2 in ${seconds(resumedMs)}; sha256 ${identical ? 'identical' : 'DIFFERENT'}; api-1 restarted in ${seconds(performance.now() - restartAt)}`,
      { identical, receivedAfterKill: received.join(','), completeStatus: done.status },
    );
  },
};
