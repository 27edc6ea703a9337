import { createHash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createChunkedUpload, hashDraft, type TChunkedProtocol } from './chunked-upload.ts';
import { RESUME_STORAGE_KEY, readResumableSession } from './resume-store.ts';
import { planResume, countChunks } from './resume-plan.ts';
import type { TTransport, TTransportRequest } from './transport.ts';
import { UploadError } from './upload-errors.ts';
import { createProgressTracker, type TPublishSnapshot } from './upload-progress-tracker.ts';
import { publishSite, toUploadMetadata, type TPublishDraft } from './publish-site.ts';

const sha256 = (b: Uint8Array | ArrayBuffer) => createHash('sha256').update(new Uint8Array(b)).digest('hex');
/** zlib's CRC-32 as a chunk carries it: base64 of its 4 big-endian bytes. */
const crc32Base64 = (b: Uint8Array | ArrayBuffer) => {
  const bigEndian = Buffer.alloc(4);
  bigEndian.writeUInt32BE(crc32(new Uint8Array(b)));
  return bigEndian.toString('base64');
};
const CHUNK = 1000;

function memoryStorage() {
  const map = new Map<string, string>();
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), removeItem: (k: string) => void map.delete(k), map };
}

interface TFakeFile {
  fileId: string;
  name: string;
  size: number;
  chunks: Map<number, Uint8Array>;
}

/** An in-memory server speaking both chunked protocols as docs/api.md describes them. */
function createFakeServer(
  options: {
    failChunk?: (fileIndex: number, chunk: number, attempt: number) => number | null;
    putUrls?: boolean;
    /**
     * Direct chunked: honour the init's chunkChecksum, require chunkCrc32 (chunkSha256) and sign it into each PUT URL,
     * as the API does on S3. `sessionChecksum` stands for a session an older wizard opened with another checksum.
     */
    chunkChecksums?: boolean;
    sessionChecksum?: 'sha256';
  } = {},
) {
  const files: TFakeFile[] = [];
  const requests: TTransportRequest[] = [];
  const attemptsByChunk = new Map<string, number>();
  let sessionId = '';
  let protocol: TChunkedProtocol = 'chunked';
  let completedWith: unknown = null;
  let sessionCount = 0;
  /** Per PUT URL, the checksum header it was signed for and its base64 value. */
  const signedSums = new Map<string, { header: string; sum: string }>();
  let requireSums: 'crc32' | 'sha256' | undefined;

  const json = (status: number, body: unknown) => ({ status, text: JSON.stringify(body) });
  const bodyBytes = async (body: TTransportRequest['body']) => new Uint8Array(body as ArrayBuffer);

  const receiveChunk = async (file: TFakeFile, index: number, request: TTransportRequest) => {
    const fileIndex = files.indexOf(file);
    const key = `${fileIndex}:${index}`;
    const attempt = (attemptsByChunk.get(key) ?? 0) + 1;
    attemptsByChunk.set(key, attempt);
    const failure = options.failChunk?.(fileIndex, index, attempt);
    if (failure !== null && failure !== undefined) return failure === 0 ? { status: 0, text: '' } : json(failure, { success: false, error: 'Storage hiccup', code: 'internal' });
    const bytes = await bodyBytes(request.body);
    const sentSha256 = request.headers?.['X-Chunk-Sha256'];
    if (request.method === 'POST' && (request.headers?.['X-Chunk-Crc32'] !== crc32Base64(bytes) || (sentSha256 !== undefined && sentSha256 !== sha256(bytes)))) {
      return json(460, { success: false, error: 'checksum mismatch', code: 'bad_request' });
    }
    const signed = signedSums.get(request.url);
    if (request.method === 'PUT' && signed !== undefined) {
      // The bucket: the signed checksum header must be sent as signed, and match the bytes.
      if (request.headers?.[signed.header] !== signed.sum) return { status: 403, text: '<Error><Code>SignatureDoesNotMatch</Code></Error>' };
      const actual = signed.header === 'x-amz-checksum-crc32' ? crc32Base64(bytes) : Buffer.from(sha256(bytes), 'hex').toString('base64');
      if (actual !== signed.sum) return { status: 400, text: '<Error><Code>BadDigest</Code></Error>' };
    }
    request.onUploadProgress?.(bytes.length, bytes.length);
    file.chunks.set(index, bytes);
    return json(200, { success: true });
  };

  const transport: TTransport = async (request) => {
    requests.push(request);
    const url = new URL(request.url, 'http://app.test');
    const body = typeof request.body === 'string' ? (JSON.parse(request.body) as Record<string, unknown>) : null;
    if (url.pathname === '/api/chunked-upload/init' || url.pathname === '/api/direct-upload/init') {
      protocol = url.pathname.startsWith('/api/chunked') ? 'chunked' : 'direct-chunked';
      sessionCount++;
      sessionId = `sess${sessionCount}`;
      files.length = 0;
      for (const [i, f] of (body!.files as { name: string; size: number }[]).entries()) files.push({ fileId: `file${i}`, name: f.name, size: f.size, chunks: new Map() });
      if (protocol === 'chunked') {
        return json(201, {
          success: true,
          sessionId,
          projectSlug: 'k3m9pq2xza',
          uploadUrls: files.map((f) => ({ fileId: f.fileId, chunkSize: CHUNK, totalChunks: countChunks(f.size, CHUNK), uploadUrl: `/api/upload-chunk/${sessionId}/${f.fileId}` })),
        });
      }
      requireSums = options.chunkChecksums === true && body!.chunkChecksum === 'crc32' ? (options.sessionChecksum ?? 'crc32') : undefined;
      return json(201, {
        success: true,
        sessionId,
        projectSlug: 'k3m9pq2xza',
        files: files.map((f) => ({ fileId: f.fileId, chunkCount: countChunks(f.size, CHUNK), chunkSize: CHUNK })),
        ...(requireSums ? { chunkChecksum: requireSums } : {}),
      });
    }
    if (url.pathname === '/api/direct-upload/urls') {
      const indices = body!.chunkIndices as number[];
      const sums = (requireSums === 'sha256' ? body!.chunkSha256 : body!.chunkCrc32) as string[] | undefined;
      if (requireSums && sums?.length !== indices.length)
        return json(400, { success: false, error: 'This upload needs the checksum of every chunk asked for', code: 'bad_request' });
      return json(200, {
        success: true,
        uploadUrls: indices.map((i, n) => {
          if (!options.putUrls) return { chunkIndex: i, uploadUrl: `/api/direct-upload/chunk/${sessionId}/${body!.fileId}/${i}`, method: 'POST' };
          if (!requireSums) return { chunkIndex: i, uploadUrl: `https://bucket.s3.test/${body!.fileId}/${i}?X-Amz-Signature=abc`, method: 'PUT' };
          const header = `x-amz-checksum-${requireSums}`;
          const sum = requireSums === 'sha256' ? Buffer.from(sums![n]!, 'hex').toString('base64') : sums![n]!;
          const uploadUrl = `https://bucket.s3.test/${body!.fileId}/${i}?X-Amz-SignedHeaders=content-length%3Bhost%3B${header}&X-Amz-Signature=${signedSums.size}`;
          signedSums.set(uploadUrl, { header, sum });
          return { chunkIndex: i, uploadUrl, method: 'PUT', headers: { [header]: sum } };
        }),
      });
    }
    const chunked = url.pathname.match(/^\/api\/upload-chunk\/([^/]+)\/([^/]+)$/);
    if (chunked) {
      if (chunked[1] !== sessionId) return json(404, { success: false, error: 'Upload session not found', code: 'not_found' });
      return receiveChunk(files.find((f) => f.fileId === chunked[2])!, Number(url.searchParams.get('chunk')), request);
    }
    const direct = url.pathname.match(/^\/api\/direct-upload\/chunk\/[^/]+\/([^/]+)\/(\d+)$/) ?? url.pathname.match(/^\/(file\d+)\/(\d+)$/);
    if (direct) return receiveChunk(files.find((f) => f.fileId === direct[1])!, Number(direct[2]), request);
    if (url.pathname === '/api/upload-session/status') {
      if (url.searchParams.get('sessionId') !== sessionId) return json(404, { success: false, error: 'Upload session not found', code: 'not_found' });
      return json(200, {
        success: true,
        session: {
          sessionId,
          projectSlug: 'k3m9pq2xza',
          protocol,
          status: 'open',
          expiresAt: '2030-01-01T00:00:00.000Z',
          files: files.map((f) => ({
            fileId: f.fileId,
            name: f.name,
            size: f.size,
            chunkSize: CHUNK,
            totalChunks: countChunks(f.size, CHUNK),
            receivedChunks: [...f.chunks.keys()],
          })),
        },
      });
    }
    if (url.pathname === '/api/chunked-upload/complete' || url.pathname === '/api/direct-upload/complete') {
      completedWith = body;
      const hashes = body!.files as { fileId: string; sha256: string }[];
      for (const f of files) {
        const whole = Buffer.concat([...f.chunks.entries()].sort((a, b) => a[0] - b[0]).map(([, b]) => b));
        if (whole.length !== f.size || hashes.find((h) => h.fileId === f.fileId)?.sha256 !== sha256(whole)) {
          return json(409, { success: false, error: 'File hash does not match', code: 'conflict' });
        }
      }
      return json(200, { success: true, url: 'http://app.test/k3m9pq2xza', slug: 'k3m9pq2xza', sessionId });
    }
    return json(404, { success: false, error: 'Not found', code: 'not_found' });
  };
  return {
    transport,
    requests,
    files,
    get completedWith() {
      return completedWith;
    },
  };
}

const DRAFT: TPublishDraft = {
  title: '  Brand Film  ',
  description: 'Final cut and stills',
  authorName: 'Ana',
  template: 'universal',
  password: '',
  expiryDate: '',
  settings: { enableFavorites: false, enableComments: false, enableApprovals: false, enableAnalytics: true, enableNotifications: false, notificationEmail: '', slackWebhook: '' },
};

const makeFiles = () => {
  const a = randomBytes(3500);
  const b = randomBytes(1000);
  const c = new Uint8Array(0);
  return {
    bytes: [a, b, c],
    files: [
      new File([a], 'film.mov', { type: 'video/quicktime', lastModified: 1 }),
      new File([b], 'still.jpg', { type: 'image/jpeg', lastModified: 2 }),
      new File([c], 'empty.txt', { lastModified: 3 }),
    ],
  };
};

const noSleep = async () => {};

/** A tracker for a test that does not look at the progress. */
function silentTracker(files: File[]) {
  return createProgressTracker(
    files.map((f) => f.size),
    () => {},
  );
}

function newUpload(protocol: TChunkedProtocol, server: ReturnType<typeof createFakeServer>, files: File[], storage = memoryStorage(), snapshots: TPublishSnapshot[] = []) {
  const tracker = createProgressTracker(
    files.map((f) => f.size),
    (s) => snapshots.push(s),
  );
  return createChunkedUpload(protocol, files, toUploadMetadata(DRAFT), { transport: server.transport, tracker, storage, sleep: noSleep });
}

describe.each(['chunked', 'direct-chunked'] as const)('%s upload', (protocol) => {
  it('declares each file with the group of the folder it was dropped in, and a session is only continued for the same folders', async () => {
    const server = createFakeServer();
    const { files } = makeFiles();
    const storage = memoryStorage();
    const groups = ['Film', null, 'Notes'];
    const upload = createChunkedUpload(protocol, files, toUploadMetadata(DRAFT), { transport: server.transport, tracker: silentTracker(files), storage, sleep: noSleep }, groups);
    await upload.start();
    const init = JSON.parse(String(server.requests[0]!.body)) as { files: Array<{ name: string; group?: string }> };
    expect(init.files.map((f) => [f.name, f.group])).toEqual([
      ['film.mov', 'Film'],
      ['still.jpg', undefined],
      ['empty.txt', 'Notes'],
    ]);
    expect(readResumableSession(storage)?.draftHash).toBe(hashDraft(toUploadMetadata(DRAFT), groups));
    expect(hashDraft(toUploadMetadata(DRAFT), groups)).not.toBe(hashDraft(toUploadMetadata(DRAFT), ['Film', null, 'Other']));
    // Without folders the draft hashes as it always did.
    expect(hashDraft(toUploadMetadata(DRAFT), [null, null, null])).toBe(hashDraft(toUploadMetadata(DRAFT)));
  });

  it('sends every chunk with its SHA-256, then completes with each whole-file SHA-256', async () => {
    const server = createFakeServer();
    const { files, bytes } = makeFiles();
    const storage = memoryStorage();
    const snapshots: TPublishSnapshot[] = [];
    const result = await newUpload(protocol, server, files, storage, snapshots).run();

    expect(result).toEqual({ url: 'http://app.test/k3m9pq2xza', slug: 'k3m9pq2xza', resumed: false });
    expect(server.files.map((f) => f.chunks.size)).toEqual([4, 1, 1]);
    expect(server.completedWith).toEqual({
      sessionId: 'sess1',
      files: [
        { fileId: 'file0', sha256: sha256(bytes[0]!) },
        { fileId: 'file1', sha256: sha256(bytes[1]!) },
        { fileId: 'file2', sha256: sha256(new Uint8Array(0)) },
      ],
    });
    // The form goes along at init; blank password and expiry are left out.
    const init = JSON.parse(String(server.requests[0]!.body)) as Record<string, unknown>;
    const metadata = protocol === 'chunked' ? init : (init.metadata as Record<string, unknown>);
    expect(metadata).toMatchObject({ title: 'Brand Film', description: 'Final cut and stills', template: 'universal', authorName: 'Ana' });
    expect(metadata).not.toHaveProperty('password');
    expect(init.files).toEqual([
      { name: 'film.mov', size: 3500, type: 'video/quicktime' },
      { name: 'still.jpg', size: 1000, type: 'image/jpeg' },
      { name: 'empty.txt', size: 0, type: '' },
    ]);
    if (protocol === 'chunked') {
      const lastFlags = server.requests
        .filter((r) => r.url.startsWith('/api/upload-chunk/sess1/file0'))
        .map((r) => r.url.split('?')[1])
        .sort();
      expect(lastFlags).toEqual(['chunk=0&last=false', 'chunk=1&last=false', 'chunk=2&last=false', 'chunk=3&last=true']);
    }
    // Done: nothing left to resume, and every byte was counted.
    expect(storage.map.has(RESUME_STORAGE_KEY)).toBe(false);
    const last = snapshots.at(-1)!;
    expect(last.sentBytes).toBe(4500);
    expect(last.files.map((f) => f.status)).toEqual(['uploaded', 'uploaded', 'uploaded']);
  });

  it('after a failed try, sends only the chunks the server lacks (resume after a drop or a reload)', async () => {
    let isDown = true;
    const server = createFakeServer({ failChunk: (file, chunk) => (isDown && file === 0 && chunk >= 2 ? 503 : null) });
    const { files, bytes } = makeFiles();
    const storage = memoryStorage();

    const first = await newUpload(protocol, server, files, storage)
      .run()
      .catch((e: unknown) => e);
    expect(first).toBeInstanceOf(UploadError);
    expect((first as Error).message).toBe('Upload incomplete: 4/6 chunks, 2 failed');
    const stored = readResumableSession(storage);
    expect(stored).toMatchObject({ protocol, sessionId: 'sess1', files: [{ name: 'film.mov', size: 3500, lastModified: 1, fileId: 'file0' }, {}, {}] });

    // The same files chosen again (new File objects, as after a reload).
    isDown = false;
    const again = makeFiles();
    const sameFiles = again.files.map((f, i) => new File([bytes[i]!], f.name, { type: f.type, lastModified: f.lastModified }));
    const before = server.requests.length;
    const result = await newUpload(protocol, server, sameFiles, storage).run();
    expect(result.resumed).toBe(true);
    const resentChunks = server.requests
      .slice(before)
      .filter((r) => /upload-chunk|direct-upload\/chunk/.test(r.url))
      .map((r) => r.url);
    expect(resentChunks).toHaveLength(2);
    expect(server.requests.slice(before).some((r) => r.url.endsWith('/init'))).toBe(false);
    expect(server.requests[before]!.url).toBe('/api/upload-session/status?sessionId=sess1');
    expect((server.completedWith as { files: { sha256: string }[] }).files[0]!.sha256).toBe(sha256(bytes[0]!));
    expect(storage.map.has(RESUME_STORAGE_KEY)).toBe(false);
  });

  it('starts a new upload when the form changed since the stored session', async () => {
    const server = createFakeServer({ failChunk: (file, chunk, attempt) => (file === 0 && chunk === 0 && attempt <= 3 ? 500 : null) });
    const { files } = makeFiles();
    const storage = memoryStorage();
    await newUpload(protocol, server, files, storage)
      .run()
      .catch(() => {});
    expect(readResumableSession(storage)?.draftHash).toBe(hashDraft(toUploadMetadata(DRAFT)));
    const tracker = silentTracker(files);
    const changed = createChunkedUpload(protocol, files, toUploadMetadata({ ...DRAFT, title: 'Another title' }), { transport: server.transport, tracker, storage, sleep: noSleep });
    const result = await changed.run();
    expect(result.resumed).toBe(false);
    expect(server.completedWith).toMatchObject({ sessionId: 'sess2' });
  });

  it("answers the spec's init message when the server refuses to start", async () => {
    const refuse: TTransport = async () => ({ status: 503, text: '<html>down</html>' });
    const { files } = makeFiles();
    const tracker = silentTracker(files);
    const error = await createChunkedUpload(protocol, files, toUploadMetadata(DRAFT), { transport: refuse, tracker, storage: null })
      .run()
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe(protocol === 'chunked' ? 'Failed to initialize upload' : 'Failed to initialize upload: 503');

    const withError: TTransport = async () => ({ status: 400, text: JSON.stringify({ success: false, error: 'Site Title is required', code: 'validation_failed' }) });
    const error2 = await createChunkedUpload(protocol, files, toUploadMetadata(DRAFT), { transport: withError, tracker, storage: null })
      .run()
      .catch((e: unknown) => e);
    expect((error2 as Error).message).toBe('Site Title is required');
  });

  it('refuses misuse with the helper messages', async () => {
    const server = createFakeServer();
    const { files } = makeFiles();
    const upload = newUpload(protocol, server, files);
    await expect(upload.upload()).rejects.toThrow('Upload session not initialized');
    await expect(upload.complete()).rejects.toThrow('Upload session not initialized');
    const starting = upload.start();
    await expect(upload.start()).rejects.toThrow('Upload already in progress');
    await starting;
    const uploading = upload.upload();
    await expect(upload.upload()).rejects.toThrow('Upload already in progress');
    await uploading;
    await expect(upload.complete()).resolves.toMatchObject({ slug: 'k3m9pq2xza' });
  });
});

describe('direct-chunked specifics', () => {
  it('PUTs to presigned storage URLs as given, without our headers', async () => {
    const server = createFakeServer({ putUrls: true });
    const { files } = makeFiles();
    await newUpload('direct-chunked', server, files).run();
    const puts = server.requests.filter((r) => r.method === 'PUT');
    expect(puts).toHaveLength(6);
    expect(puts.every((r) => r.url.startsWith('https://bucket.s3.test/') && !r.headers?.['X-Chunk-Crc32'] && !r.headers?.['X-Chunk-Sha256'])).toBe(true);
  });

  it('declares chunk CRC-32s at init, checks each chunk before asking its URL, and sends the checksum header the answer lists', async () => {
    const server = createFakeServer({ putUrls: true, chunkChecksums: true });
    const { files, bytes } = makeFiles();
    const result = await newUpload('direct-chunked', server, files).run();
    expect(result.slug).toBe('k3m9pq2xza');
    const init = JSON.parse(String(server.requests[0]!.body)) as Record<string, unknown>;
    expect(init.chunkChecksum).toBe('crc32');
    const asked = server.requests
      .filter((r) => r.url === '/api/direct-upload/urls')
      .map((r) => JSON.parse(r.body as string) as { fileId: string; chunkIndices: number[]; chunkCrc32?: string[]; chunkSha256?: string[] });
    // Every URL asked for comes with the CRC-32 of exactly that chunk, and no SHA-256.
    const film = Buffer.from(bytes[0]!);
    const filmAsks = asked.filter((a) => a.fileId === 'file0').flatMap((a) => a.chunkIndices.map((index, n) => ({ index, crc: a.chunkCrc32?.[n], sha: a.chunkSha256 })));
    expect(filmAsks).toEqual([0, 1, 2, 3].map((index) => ({ index, crc: crc32Base64(film.subarray(index * CHUNK, (index + 1) * CHUNK)), sha: undefined })));
    const puts = server.requests.filter((r) => r.method === 'PUT');
    expect(puts).toHaveLength(6);
    expect(puts.every((r) => typeof r.headers?.['x-amz-checksum-crc32'] === 'string')).toBe(true);
  });

  it('continues a session an older wizard opened with chunk SHA-256s: each URL asked and each chunk sent via the API carries it', async () => {
    let isDown = true;
    const server = createFakeServer({ chunkChecksums: true, sessionChecksum: 'sha256', failChunk: (f, c) => (isDown && f === 0 && c >= 2 ? 503 : null) });
    const { files, bytes } = makeFiles();
    const storage = memoryStorage();
    await expect(newUpload('direct-chunked', server, files, storage).run()).rejects.toThrow('Upload incomplete');
    expect(readResumableSession(storage)?.chunkChecksum).toBe('sha256');
    isDown = false;
    const before = server.requests.length;
    expect((await newUpload('direct-chunked', server, files, storage).run()).resumed).toBe(true);
    const film = Buffer.from(bytes[0]!);
    const sums = [2, 3].map((i) => sha256(film.subarray(i * CHUNK, (i + 1) * CHUNK)));
    const asked = server.requests
      .slice(before)
      .filter((r) => r.url === '/api/direct-upload/urls')
      .map((r) => JSON.parse(r.body as string) as { chunkIndices: number[]; chunkSha256?: string[] });
    expect(asked.map((a) => [a.chunkIndices, a.chunkSha256])).toEqual([2, 3].map((i, n) => [[i], [sums[n]]]));
    const sent = server.requests.slice(before).filter((r) => r.method === 'POST' && r.url.includes('/file0/'));
    expect(sent.map((r) => r.headers?.['X-Chunk-Sha256'])).toEqual(sums);
  });

  it('with chunk checksums, asks for a fresh URL (with the same checksum) after a refused PUT', async () => {
    const server = createFakeServer({ putUrls: true, chunkChecksums: true, failChunk: (f, c, attempt) => (f === 0 && c === 1 && attempt === 1 ? 403 : null) });
    const { files, bytes } = makeFiles();
    expect((await newUpload('direct-chunked', server, files).run()).slug).toBe('k3m9pq2xza');
    expect(Buffer.concat([...server.files[0]!.chunks.entries()].sort((a, b) => a[0] - b[0]).map(([, b]) => b))).toEqual(Buffer.from(bytes[0]!));
    const asked = server.requests
      .filter((r) => r.url === '/api/direct-upload/urls')
      .map((r) => JSON.parse(r.body as string) as { fileId: string; chunkIndices: number[]; chunkCrc32?: string[] })
      .filter((a) => a.fileId === 'file0' && a.chunkIndices.includes(1));
    const second = crc32Base64(Buffer.from(bytes[0]!).subarray(CHUNK, 2 * CHUNK));
    expect(asked.map((a) => a.chunkCrc32?.[a.chunkIndices.indexOf(1)])).toEqual([second, second]);
  });

  it('with chunk checksums, a resumed upload (after a reload) still gives each chunk’s CRC-32', async () => {
    let isDown = true;
    const server = createFakeServer({ putUrls: true, chunkChecksums: true, failChunk: (f, c) => (isDown && f === 0 && c >= 2 ? 503 : null) });
    const { files, bytes } = makeFiles();
    const storage = memoryStorage();
    await expect(newUpload('direct-chunked', server, files, storage).run()).rejects.toThrow('Upload incomplete');
    expect(readResumableSession(storage)?.chunkChecksum).toBe('crc32');
    isDown = false;
    const before = server.requests.length;
    const result = await newUpload('direct-chunked', server, files, storage).run();
    expect(result.resumed).toBe(true);
    const asked = server.requests
      .slice(before)
      .filter((r) => r.url === '/api/direct-upload/urls')
      .map((r) => JSON.parse(r.body as string) as { chunkIndices: number[]; chunkCrc32?: string[] });
    const film = Buffer.from(bytes[0]!);
    expect(asked.map((a) => [a.chunkIndices, a.chunkCrc32])).toEqual([2, 3].map((i) => [[i], [crc32Base64(film.subarray(i * CHUNK, (i + 1) * CHUNK))]]));
  });

  it('asks for a fresh URL when the bucket refuses an expired one (403), and finishes', async () => {
    const server = createFakeServer({ putUrls: true, failChunk: (f, c, attempt) => (f === 0 && c === 1 && attempt === 1 ? 403 : null) });
    const { files, bytes } = makeFiles();
    const result = await newUpload('direct-chunked', server, files).run();
    expect(result.slug).toBe('k3m9pq2xza');
    expect(Buffer.concat([...server.files[0]!.chunks.entries()].sort((a, b) => a[0] - b[0]).map(([, b]) => b))).toEqual(Buffer.from(bytes[0]!));
    const asked = server.requests.filter((r) => r.url === '/api/direct-upload/urls').map((r) => JSON.parse(r.body as string) as { fileId: string; chunkIndices: number[] });
    expect(asked.filter((b) => b.fileId === 'file0' && b.chunkIndices[0] === 1)).toHaveLength(1); // the refetch, starting at chunk 1
  });

  it('says which chunk had no upload URL', async () => {
    const server = createFakeServer();
    const transport: TTransport = async (r) =>
      r.url === '/api/direct-upload/urls' ? { status: 200, text: JSON.stringify({ success: true, uploadUrls: [] }) } : server.transport(r);
    const { files } = makeFiles();
    const tracker = silentTracker(files);
    const error = await createChunkedUpload('direct-chunked', files, toUploadMetadata(DRAFT), { transport, tracker, storage: null, sleep: noSleep })
      .run()
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe('Failed to get upload URL for chunk 1');
  });

  it("reports 'Upload failed with status {status}' for a refused chunk, and 'Failed to complete upload: {status}'", async () => {
    const server = createFakeServer({ failChunk: (f) => (f === 1 ? 500 : null) });
    const { files } = makeFiles();
    const result = await newUpload('direct-chunked', server, files)
      .run()
      .catch((e: unknown) => e);
    const cause = ((result as Error).cause as Error).cause as Error;
    expect(((result as Error).cause as Error).message).toBe('Chunk 1 upload failed');
    expect(cause.message).toBe('Storage hiccup');

    const noComplete: TTransport = async (r) => (r.url === '/api/direct-upload/complete' ? { status: 502, text: 'bad gateway' } : createFakeServer().transport(r));
    const fresh = createFakeServer();
    const transport: TTransport = async (r) => (r.url === '/api/direct-upload/complete' ? noComplete(r) : fresh.transport(r));
    const tracker = silentTracker(files);
    const error = await createChunkedUpload('direct-chunked', files, toUploadMetadata(DRAFT), { transport, tracker, storage: null, sleep: noSleep })
      .run()
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe('Failed to complete upload: 502');
  });
});

describe('planResume', () => {
  const session = (received: number[], status: 'open' | 'completed' = 'open') => ({
    status,
    files: [{ fileId: 'a', name: 'a', size: 3500, chunkSize: 1000, totalChunks: 4, receivedChunks: received }],
  });

  it('lists the chunks the server lacks', () => {
    expect(planResume(session([0, 2]), [{ fileId: 'a', size: 3500 }])).toEqual([{ fileId: 'a', chunkSize: 1000, totalChunks: 4, missing: [1, 3] }]);
    expect(planResume(session([0, 1, 2, 3]), [{ fileId: 'a', size: 3500 }])![0]!.missing).toEqual([]);
  });

  it('ignores nonsense indices from the server', () => {
    expect(planResume(session([0, -1, 9, 1.5]), [{ fileId: 'a', size: 3500 }])![0]!.missing).toEqual([1, 2, 3]);
  });

  it('refuses to resume a session of other files or one no longer uploading', () => {
    expect(planResume(session([]), [{ fileId: 'a', size: 3501 }])).toBeNull();
    expect(planResume(session([]), [{ fileId: 'b', size: 3500 }])).toBeNull();
    expect(planResume(session([], 'completed'), [{ fileId: 'a', size: 3500 }])).toBeNull();
  });
});

describe('publishSite', () => {
  const files = [new File([new Uint8Array(10)], 'a.jpg', { type: 'image/jpeg' }), new File([new Uint8Array(30)], 'b.pdf', { type: 'application/pdf' })];

  it('takes the direct path, then polls optimisation: after 1 s, then every 2 s, showing 30 up to 88 until done', async () => {
    const waits: number[] = [];
    const progress: (number | null)[] = [];
    let polls = 0;
    const transport: TTransport = async (r) => {
      if (r.url === '/api/direct-upload') return { status: 201, text: JSON.stringify({ success: true, url: 'http://x/abcdefghjk', slug: 'abcdefghjk' }) };
      if (r.url === '/api/direct-upload/status/abcdefghjk') {
        polls++;
        const replies = [
          { optimizationProgress: 5, optimizationComplete: false },
          null, // a failed poll is ignored
          { optimizationProgress: 60, optimizationComplete: false },
          { optimizationProgress: 99, optimizationComplete: false },
          { optimizationProgress: 100, optimizationComplete: true },
        ];
        const project = replies[polls - 1];
        if (!project) return { status: 500, text: '' };
        return { status: 200, text: JSON.stringify({ success: true, project }) };
      }
      return { status: 404, text: '' };
    };
    const result = await publishSite(files, DRAFT, {
      mode: 'direct',
      transport,
      sleep: async (ms) => void waits.push(ms),
      onProgress: (s) => progress.push(s.optimizationPercent),
    });
    expect(result).toEqual({ mode: 'direct', url: 'http://x/abcdefghjk', slug: 'abcdefghjk' });
    expect(waits).toEqual([1000, 2000, 2000, 2000, 2000]);
    const shown = [...new Set(progress.filter((p) => p !== null))];
    expect(shown).toEqual([30, 60, 88, 100]);
  });

  it('stops polling after 30 tries and still publishes', async () => {
    let polls = 0;
    const transport: TTransport = async (r) => {
      if (r.method === 'POST') return { status: 201, text: JSON.stringify({ success: true, url: 'http://x/abcdefghjk', slug: 'abcdefghjk' }) };
      polls++;
      return { status: 200, text: JSON.stringify({ success: true, project: { optimizationProgress: 40, optimizationComplete: false } }) };
    };
    await publishSite(files, DRAFT, { mode: 'direct', transport, sleep: noSleep });
    expect(polls).toBe(30);
  });

  it("uses the backend error, or 'Direct upload failed'", async () => {
    const refuse: TTransport = async () => ({ status: 413, text: JSON.stringify({ success: false, error: 'File is larger than your plan allows', code: 'payload_too_large' }) });
    await expect(publishSite(files, DRAFT, { mode: 'direct', transport: refuse })).rejects.toThrow('File is larger than your plan allows');
    const gateway: TTransport = async () => ({ status: 502, text: 'Bad gateway' });
    await expect(publishSite(files, DRAFT, { mode: 'direct', transport: gateway })).rejects.toThrow('Direct upload failed');
  });

  it('sends small drops as one regular request with the whole form, marking each file as its bytes go', async () => {
    const snapshots: TPublishSnapshot[] = [];
    let sent: FormData | null = null;
    const statusPolls: string[] = [];
    const transport: TTransport = async (r) => {
      if (r.method === 'GET') {
        statusPolls.push(r.url);
        const building = statusPolls.length < 2;
        return { status: 200, text: JSON.stringify({ success: true, slug: 'abcdefghjk', status: building ? 'building' : 'live', progress: building ? 40 : 100, stage: '' }) };
      }
      sent = r.body as FormData;
      r.onUploadProgress?.(10, 40);
      r.onUploadProgress?.(40, 40);
      r.onUploadComplete?.();
      return { status: 201, text: JSON.stringify({ success: true, url: 'http://x/abcdefghjk', slug: 'abcdefghjk' }) };
    };
    const published = new Promise<string>((resolve) => {
      void publishSite(
        files,
        { ...DRAFT, password: 'pw', expiryDate: '2031-05-01T10:00:00.000Z' },
        { transport, sleep: noSleep, onProgress: (s) => snapshots.push(s), onSlugKnown: resolve },
      ).then(() => resolve('done'));
    });
    expect(await published).toBe('abcdefghjk');
    await expect.poll(() => snapshots.at(-1)?.phase).toBe('done');
    // The overlay stays until the build is live (spec 2.6: 'while upload and build finish').
    expect(statusPolls).toEqual(['/api/sites/abcdefghjk/status', '/api/sites/abcdefghjk/status']);
    expect(snapshots.some((s) => s.phase === 'optimizing' && s.optimizationPercent === 40)).toBe(true);
    expect(sent!.get('password')).toBe('pw');
    expect(sent!.get('expiryDate')).toBe('2031-05-01T10:00:00.000Z');
    expect(snapshots.some((s) => s.files[0]!.status === 'uploaded' && s.files[1]!.status === 'pending')).toBe(true);
    expect(snapshots.at(-1)!.files.map((f) => f.status)).toEqual(['complete', 'complete']);
    expect(snapshots.at(-1)!.phase).toBe('done');
  });
});
