/**
 * storage-full: the store runs out of space. An upload is answered 507 (Insufficient Storage) with a
 * message saying so, nothing of it is kept as complete (no site for it, no object under its final
 * key, the chunk not counted as received), and once space returns the same uploads go through.
 */
import { UPLOADS_PREFIX } from '@dropsite/shared';
import { makeBytes } from '@dropsite/testkit/bytes';
import { completeSession, initChunked, sendChunk, sessionStatus } from '@dropsite/testkit/control-api/upload-session-client';
import { httpClient, publish, seconds, sha256, waitLive } from './http-client.ts';
import { expectations, type TFaultRow } from './row.ts';
import { storedKeys } from './store.ts';

/** Larger than what is left on a full store, smaller than one chunk. */
const FILE_BYTES = 3 * 1024 * 1024 + 123;

export const storageFull: TFaultRow = {
  name: 'storage-full',
  expectation: 'the store out of space: an upload answers 507 with a clear message, nothing is kept as complete, uploads work again once space returns',
  simulates:
    "The S3 store keeps its objects on a tmpfs of its own; it is filled with a file until the kernel answers ENOSPC, then that file is removed. The store answers a write that does not fit as MinIO does (507 XMinioStorageFull; s3rver itself would crash), see scripts/src/faults/store.ts. Where mount is not allowed, the store's write path raises ENOSPC by a switch instead (the output says 'simulated'). Tried while full: a one-request upload and a chunk of a resumable upload, both through the edge.",
  async run(faults, log) {
    const { stack, store } = faults;
    const { check, outcome } = expectations();
    const creator = httpClient(stack.url);
    const bytes = makeBytes(FILE_BYTES);
    const file = { name: 'master.wav', type: 'audio/wav', bytes };

    // A resumable upload opened while there is space; its chunk arrives once there is none.
    const init = await initChunked(stack.url, [file], { title: 'Fault: store full, resumable' });
    if (!check(init.status === 201, `init answered ${init.status}`)) return outcome(JSON.stringify(init.body));
    const sessionId = String(init.body.sessionId);
    const target = (init.body.uploadUrls as Array<{ fileId: string; uploadUrl: string }>)[0];
    if (!target) return outcome('init named no file');

    const keysBefore = await storedKeys(store, faults.bucket, UPLOADS_PREFIX);
    const freeBefore = await store.fill();
    const freeWhenFull = await store.freeBytes();
    log(
      `  store filled: ${(freeBefore / 2 ** 20).toFixed(0)} MiB were free, ${freeWhenFull} bytes now (${store.filesystem === 'tmpfs' ? 'real ENOSPC on a tmpfs' : 'simulated ENOSPC'})`,
    );
    const refusedBefore = store.refusedWrites();

    const title = `Fault: store full ${Date.now()}`;
    const full = await publish(creator, title, [file]);
    const fullMessage = typeof full.body.error === 'string' ? full.body.error : '';
    check(full.status === 507, `the upload on a full store answered ${full.status}: ${JSON.stringify(full.body).slice(0, 200)}`);
    check(/storage|space/i.test(fullMessage), `the 507's message does not say the storage is full: ${JSON.stringify(fullMessage)}`);
    const chunkFull = await sendChunk(stack.url, target.uploadUrl, 0, bytes, { last: true });
    check(chunkFull.status === 507, `the chunk on a full store answered ${chunkFull.status}: ${JSON.stringify(chunkFull.body).slice(0, 200)}`);
    const statusFull = await sessionStatus(stack.url, sessionId);
    const receivedFull = (statusFull.body.session as { files?: Array<{ receivedChunks: number[] }> } | undefined)?.files?.[0]?.receivedChunks ?? [];
    check(statusFull.status === 200 && receivedFull.length === 0, `the refused chunk counts as received: ${JSON.stringify(statusFull.body).slice(0, 200)}`);
    const refusedByStore = store.refusedWrites() - refusedBefore;
    check(refusedByStore > 0, 'the store refused no write: the uploads did not reach the full store');

    // Nothing of the refused uploads is kept as complete.
    const rows = await faults.query<{ n: string }>('select count(*) as n from projects where title = $1', [title]);
    check(Number(rows[0]?.n) === 0, `a site was made for the refused upload (${rows[0]?.n})`);
    const sessionSite = await faults.query<{ n: string }>('select count(*) as n from projects where slug = $1', [String(init.body.projectSlug)]);
    check(Number(sessionSite[0]?.n) === 0, 'the resumable upload has a site although its chunk was refused');
    const keysFull = await storedKeys(store, faults.bucket, UPLOADS_PREFIX);
    const newKeys = keysFull.filter((key) => !keysBefore.includes(key));
    check(newKeys.length === 0, `objects written under their final keys while full: ${newKeys.join(', ')}`);

    await store.free();
    log('  space returned');
    const again = await publish(creator, `${title}, again`, [file]);
    check(again.status === 201 && again.slug !== undefined, `the upload once space returned answered ${again.status}: ${JSON.stringify(again.body).slice(0, 200)}`);
    let identical = false;
    if (again.slug !== undefined) {
      check((await waitLive(stack.url, again.slug, 60_000)) !== undefined, 'the site uploaded once space returned did not become live');
      const [row] = await faults.query<{ id: string }>('select f.id from files f join projects p on p.id = f.project_id where p.slug = $1', [again.slug]);
      const download = await fetch(`${stack.url}/api/files/${row?.id}?mode=download`);
      identical = download.status === 200 && sha256(new Uint8Array(await download.arrayBuffer())) === sha256(bytes);
      check(identical, 'the file uploaded once space returned is not the original');
    }
    const chunkAgain = await sendChunk(stack.url, target.uploadUrl, 0, bytes, { last: true });
    check(chunkAgain.status === 200, `the chunk sent again answered ${chunkAgain.status}: ${JSON.stringify(chunkAgain.body).slice(0, 200)}`);
    const done = await completeSession(stack.url, sessionId, [{ fileId: target.fileId, sha256: sha256(bytes) }]);
    check(done.status === 200, `completing the resumable upload answered ${done.status}: ${JSON.stringify(done.body).slice(0, 200)}`);
    const resumedLive = done.status === 200 && (await waitLive(stack.url, String(init.body.projectSlug), 60_000)) !== undefined;
    check(resumedLive, 'the resumable upload did not become live once space returned');

    return outcome(
      `${store.filesystem === 'tmpfs' ? 'real ENOSPC (tmpfs filled to 0 bytes free)' : 'simulated ENOSPC (mount not allowed)'}; while full: upload ${full.status} in ${seconds(full.ms)} "${fullMessage}", chunk ${chunkFull.status}, ${refusedByStore} store writes refused, ${newKeys.length} new objects, no site; space back: upload ${again.status} (sha256 ${identical ? 'identical' : 'DIFFERENT'}), chunk ${chunkAgain.status}, complete ${done.status}${resumedLive ? ', both live' : ''}`,
      { fullStatus: full.status, chunkFullStatus: chunkFull.status, newKeys: newKeys.length, againStatus: again.status, identical, filesystem: store.filesystem },
    );
  },
};
