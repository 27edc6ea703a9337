/** Assembly without HTTP: missing chunks, the whole-file check, publishing, one completion at a time. */
import { vi, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHUNK_SIZE, uploadKey } from '@dropsite/shared';
import { findSiteById } from '../site-records/site-records.repository.ts';
import { makeBytes, sha256 } from '@dropsite/testkit/bytes';
import { appErrorOf, chunkInput, chunkOf, initInput, startSessionParts, type TSessionParts } from '@dropsite/testkit/control-api/session-test-deps';
import { findUploadSessionById } from './upload-sessions.repository.ts';

async function readObject(parts: TSessionParts, key: string): Promise<Buffer> {
  const { body } = await parts.deps.storage.get(key);
  const pieces: Buffer[] = [];
  for await (const piece of body) pieces.push(piece as Buffer);
  return Buffer.concat(pieces);
}

describe('assembly', () => {
  let parts: TSessionParts;
  const bytes = makeBytes(2 * CHUNK_SIZE + 1234);
  beforeEach(async () => {
    parts = await startSessionParts();
  });
  afterEach(async () => {
    await parts.close();
  });

  async function openWithChunks(indices: readonly number[]) {
    const view = await parts.lifecycle.init(initInput([{ name: 'take.mov', bytes }]));
    const fileId = view.files[0]!.id;
    for (const i of indices) await parts.receipt.receiveChunk(chunkInput(view.session.id, fileId, i, chunkOf(bytes, i)));
    return { view, fileId };
  }

  it('publishes the assembled file under its final key, hashed as it arrived (the file is not read again)', async () => {
    const { view, fileId } = await openWithChunks([1, 0, 2]);
    const hashObject = vi.spyOn(parts.deps.storage, 'hashObject');
    const done = await parts.assembly.complete(view.session.id, [{ fileId, sha256: sha256(bytes) }]);
    expect(done.slug).toBe(view.session.project_slug);
    expect(hashObject).not.toHaveBeenCalled();
    const key = uploadKey(view.session.project_id, fileId);
    expect(sha256(await readObject(parts, key))).toBe(sha256(bytes));
    expect(await findSiteById(parts.deps.db, view.session.project_id)).toMatchObject({ slug: view.session.project_slug, status: 'building' });
    expect(await findUploadSessionById(parts.deps.db, view.session.id)).toMatchObject({ status: 'completed' });
    // A retried complete answers the same.
    expect(await parts.assembly.complete(view.session.id, undefined)).toEqual(done);
  });

  it('lists the missing chunks (409) and leaves the session open', async () => {
    const { view, fileId } = await openWithChunks([0, 2]);
    const error = await appErrorOf(parts.assembly.complete(view.session.id, undefined));
    expect([error.status, error.code]).toEqual([409, 'upload_incomplete']);
    expect(error.details).toEqual({ missingChunks: [{ fileId, chunkIndices: [1] }] });
    expect(await findUploadSessionById(parts.deps.db, view.session.id)).toMatchObject({ status: 'open' });
  });

  it('refuses a file whose SHA-256 is not the one declared (409), drops it and reopens the session', async () => {
    const { view, fileId } = await openWithChunks([0, 1, 2]);
    const error = await appErrorOf(parts.assembly.complete(view.session.id, [{ fileId, sha256: sha256(Buffer.from('other')) }]));
    expect([error.status, error.code]).toEqual([409, 'file_checksum_mismatch']);
    expect(await findUploadSessionById(parts.deps.db, view.session.id)).toMatchObject({ status: 'open' });
    expect(await parts.deps.storage.head(uploadKey(view.session.project_id, fileId))).toBeNull();
    expect((await parts.lifecycle.describe(view.session.id)).files[0]!.receivedChunks).toEqual([]);
  });

  it('completes once when asked twice at the same time', async () => {
    const { view } = await openWithChunks([0, 1, 2]);
    const [a, b] = await Promise.all([parts.assembly.complete(view.session.id, undefined), parts.assembly.complete(view.session.id, undefined)]);
    expect(a).toEqual(b);
  });
});
