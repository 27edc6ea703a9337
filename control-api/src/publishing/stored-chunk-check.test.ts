/**
 * Disk parts are not fsynced one by one, so a power cut may take acknowledged chunks with it. After a
 * restart the API reads back each chunk an earlier run recorded and forgets those whose bytes no longer
 * match: here the data file is corrupted, truncated or a part marker torn between two runs on the same
 * folder, as a power cut could leave them. The status lists those chunks as missing, the client sends
 * them again, and the published file is the original.
 */
import { mkdtemp, open, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CHUNK_SIZE, uploadKey } from '@dropsite/shared';
import { makeBytes, sha256 } from '@dropsite/testkit/bytes';
import { chunkInput, chunkOf, initInput, startSessionParts, type TSessionParts } from '@dropsite/testkit/control-api/session-test-deps';
import { findUploadFile } from './upload-sessions.repository.ts';

const bytes = makeBytes(3 * CHUNK_SIZE + 4321);

describe('chunks acknowledged before a power cut', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** A first run receives every chunk but does not complete; `damage` then edits the stored upload. */
  async function receiveThenRestart(damage: (upload: { dataFile: string; partsDir: string }) => Promise<void>) {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'dropsite-powercut-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const first = await startSessionParts({ dataDir });
    const view = await first.lifecycle.init(initInput([{ name: 'master.mov', bytes }]));
    const fileId = view.files[0]!.id;
    for (let i = 0; i < 4; i++) await first.receipt.receiveChunk(chunkInput(view.session.id, fileId, i, chunkOf(bytes, i)));
    const uploadId = (await findUploadFile(first.deps.db, view.session.id, fileId))!.multipart_upload_id!;
    await first.close();
    const uploadDir = path.join(dataDir, 'storage', '.multipart', uploadId);
    await damage({ dataFile: path.join(uploadDir, 'data'), partsDir: path.join(uploadDir, 'parts') });
    const second = await startSessionParts({ dataDir });
    cleanups.push(() => second.close());
    return { parts: second, sessionId: view.session.id, projectId: view.session.project_id, fileId };
  }

  async function resumeAndComplete(parts: TSessionParts, sessionId: string, siteId: string, fileId: string) {
    const received = (await parts.lifecycle.describe(sessionId)).files[0]!.receivedChunks;
    for (let i = 0; i < 4; i++) {
      if (!received.includes(i)) expect((await parts.receipt.receiveChunk(chunkInput(sessionId, fileId, i, chunkOf(bytes, i)))).duplicate).toBe(false);
    }
    await parts.assembly.complete(sessionId, [{ fileId, sha256: sha256(bytes) }]);
    const { body } = await parts.deps.storage.get(uploadKey(siteId, fileId));
    const pieces: Buffer[] = [];
    for await (const piece of body) pieces.push(piece as Buffer);
    expect(sha256(Buffer.concat(pieces))).toBe(sha256(bytes));
  }

  it('asks again for a chunk whose bytes were lost (here: zeroed), and publishes the original file', async () => {
    const {
      parts,
      sessionId,
      projectId: siteId,
      fileId,
    } = await receiveThenRestart(async ({ dataFile }) => {
      const handle = await open(dataFile, 'r+');
      await handle.write(Buffer.alloc(4096), 0, 4096, CHUNK_SIZE + 100_000);
      await handle.close();
    });
    expect((await parts.lifecycle.describe(sessionId)).files[0]!.receivedChunks).toEqual([0, 2, 3]);
    await resumeAndComplete(parts, sessionId, siteId, fileId);
  });

  it('checks a chunk recorded by its SHA-256 (by a version before chunks were recorded by CRC-32) by its SHA-256', async () => {
    const {
      parts,
      sessionId,
      projectId: siteId,
      fileId,
    } = await receiveThenRestart(async ({ dataFile }) => {
      const handle = await open(dataFile, 'r+');
      await handle.write(Buffer.alloc(4096), 0, 4096, 2 * CHUNK_SIZE + 100_000);
      await handle.close();
    });
    for (let i = 0; i < 4; i++) {
      await parts.deps.db
        .updateTable('upload_chunks')
        .set({ checksum: sha256(chunkOf(bytes, i)) })
        .where('file_id', '=', fileId)
        .where('chunk_index', '=', i)
        .execute();
    }
    expect((await parts.lifecycle.describe(sessionId)).files[0]!.receivedChunks).toEqual([0, 1, 3]);
    await resumeAndComplete(parts, sessionId, siteId, fileId);
  });

  it('asks again for chunks cut off the end of the data file', async () => {
    const { parts, sessionId, projectId: siteId, fileId } = await receiveThenRestart(({ dataFile }) => truncate(dataFile, 2 * CHUNK_SIZE + 10));
    expect((await parts.lifecycle.describe(sessionId)).files[0]!.receivedChunks).toEqual([0, 1]);
    await resumeAndComplete(parts, sessionId, siteId, fileId);
  });

  it('asks again for a chunk whose part marker was torn, and a chunk sent again before the status call is stored, not taken as a duplicate', async () => {
    const {
      parts,
      sessionId,
      projectId: siteId,
      fileId,
    } = await receiveThenRestart(async ({ partsDir }) => {
      // Chunk i is part i + 1.
      const marker = path.join(partsDir, '2.json');
      await writeFile(marker, (await readFile(marker, 'utf8')).slice(0, 7));
    });
    expect((await parts.receipt.receiveChunk(chunkInput(sessionId, fileId, 1, chunkOf(bytes, 1)))).duplicate).toBe(false);
    expect((await parts.lifecycle.describe(sessionId)).files[0]!.receivedChunks).toEqual([0, 1, 2, 3]);
    await resumeAndComplete(parts, sessionId, siteId, fileId);
  });

  it('keeps every intact chunk across a restart', async () => {
    const { parts, sessionId, projectId: siteId, fileId } = await receiveThenRestart(async () => {});
    expect((await parts.lifecycle.describe(sessionId)).files[0]!.receivedChunks).toEqual([0, 1, 2, 3]);
    await resumeAndComplete(parts, sessionId, siteId, fileId);
  });
});
