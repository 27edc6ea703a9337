import { expect, it } from 'vitest';
import { isSlugInUse } from './slugs.repository.ts';
import { describeEachDialect, makeUploadFileRow, makeUploadSessionRow } from '@dropsite/testkit/control-api/test-database';
import {
  claimUploadSessionCompletion,
  deleteFinishedUploadSessions,
  findAbandonedUploadSessions,
  findChunksBySession,
  findLiveMultipartUploadIds,
  findUploadSessionById,
  insertChunk,
  insertUploadSession,
  markUploadSessionAborted,
  markUploadSessionCompleted,
  reopenUploadSession,
  resetUploadFile,
  setUploadFileMultipartId,
} from './upload-sessions.repository.ts';

const NOW = 1_763_800_000_000;

await describeEachDialect('upload sessions repository', (handle) => {
  it('refuses a second session with the same idempotency key or slug', async () => {
    const first = makeUploadSessionRow({ idempotency_key: 'k1' });
    expect(await insertUploadSession(handle.db, first, [makeUploadFileRow(first.id)])).toBe('inserted');
    expect(await insertUploadSession(handle.db, makeUploadSessionRow({ idempotency_key: 'k1' }), [])).toBe('duplicate');
    expect(await insertUploadSession(handle.db, makeUploadSessionRow({ project_slug: first.project_slug }), [])).toBe('duplicate');
    expect(await isSlugInUse(handle.db, first.project_slug!)).toBe(true);
  });

  it('records a chunk once; the second writer learns it exists', async () => {
    const session = makeUploadSessionRow();
    const file = makeUploadFileRow(session.id);
    await insertUploadSession(handle.db, session, [file]);
    const row = { file_id: file.id, chunk_index: 1, size: 10, checksum: '0a0b0c0d', storage_key: 'k', etag: '"e"', created_at: NOW };
    expect(await insertChunk(handle.db, row)).toBe('inserted');
    expect(await insertChunk(handle.db, { ...row, checksum: '0e0f1011' })).toBe('exists');
    expect((await findChunksBySession(handle.db, session.id)).get(file.id)?.map((c) => c.checksum)).toEqual(['0a0b0c0d']);
    await resetUploadFile(handle.db, file.id, null);
    expect((await findChunksBySession(handle.db, session.id)).get(file.id)).toBeUndefined();
  });

  it('lets exactly one completer claim a session, and another only after the lease runs out', async () => {
    const session = makeUploadSessionRow();
    await insertUploadSession(handle.db, session, []);
    const claims = await Promise.all([1, 2, 3].map(() => claimUploadSessionCompletion(handle.db, session.id, NOW, NOW + 100)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await claimUploadSessionCompletion(handle.db, session.id, NOW + 50, NOW + 150)).toBe(false);
    expect(await markUploadSessionAborted(handle.db, session.id, NOW + 50)).toBe(false);
    expect(await claimUploadSessionCompletion(handle.db, session.id, NOW + 101, NOW + 200)).toBe(true);
    await reopenUploadSession(handle.db, session.id, NOW + 5000);
    expect(await findUploadSessionById(handle.db, session.id)).toMatchObject({ status: 'open', lease_until: null, expires_at: NOW + 5000 });
    expect(await claimUploadSessionCompletion(handle.db, session.id, NOW, NOW + 100)).toBe(true);
    await markUploadSessionCompleted(handle.db, session.id, NOW + 10);
    expect(await claimUploadSessionCompletion(handle.db, session.id, NOW + 1000, NOW + 2000)).toBe(false);
    expect(await markUploadSessionAborted(handle.db, session.id, NOW + 1000)).toBe(false);
  });

  it('finds abandoned sessions, keeps live multipart ids, and forgets finished sessions after the cutoff', async () => {
    const abandoned = makeUploadSessionRow({ expires_at: NOW - 1 });
    const live = makeUploadSessionRow({ expires_at: NOW + 10_000 });
    const abandonedFile = makeUploadFileRow(abandoned.id);
    const liveFile = makeUploadFileRow(live.id);
    await insertUploadSession(handle.db, abandoned, [abandonedFile]);
    await insertUploadSession(handle.db, live, [liveFile]);
    await setUploadFileMultipartId(handle.db, abandonedFile.id, 'up-abandoned');
    await setUploadFileMultipartId(handle.db, liveFile.id, 'up-live');

    const found = (await findAbandonedUploadSessions(handle.db, NOW, 100)).map((s) => s.id);
    expect(found).toContain(abandoned.id);
    expect(found).not.toContain(live.id);
    expect(await markUploadSessionAborted(handle.db, abandoned.id, NOW)).toBe(true);
    const ids = await findLiveMultipartUploadIds(handle.db);
    expect(ids.has('up-live')).toBe(true);
    expect(ids.has('up-abandoned')).toBe(false);

    expect(await deleteFinishedUploadSessions(handle.db, NOW - 10)).toBe(0);
    expect(await deleteFinishedUploadSessions(handle.db, NOW)).toBeGreaterThanOrEqual(1);
    expect(await findUploadSessionById(handle.db, abandoned.id)).toBeNull();
    expect(await findUploadSessionById(handle.db, live.id)).not.toBeNull();
  });
});
