/**
 * The S3-compatible store of the fault stack: s3rver (as `npm run stack` runs it) keeping its objects
 * on a small filesystem of its own, so the store can run out of space for real.
 *
 * - As root (or wherever `mount` is allowed) the objects live on a tmpfs of STORE_SIZE_BYTES mounted
 *   for this run: `fill()` writes a file until the kernel answers ENOSPC, `free()` removes it.
 * - Otherwise the objects live in an ordinary folder and `fill()` turns on a switch in the store's
 *   write path that fails every write with ENOSPC: the same error, simulated (`filesystem` says which).
 *
 * s3rver writes an object straight to its final file and does not listen for write errors on it (a
 * full disk would crash the process hosting it, after a 200). MinIO, which compose runs, writes a
 * temporary file first and answers a full disk with 507 `XMinioStorageFull`. The guard below gives
 * s3rver that behaviour: every written body (PutObject, UploadPart) is first spooled to the store's
 * filesystem with some room for its metadata; when that write fails with ENOSPC the request is
 * answered 507 `XMinioStorageFull` and s3rver never sees it, otherwise the spool is let go and s3rver
 * writes the same bytes. A copy or the completion of a multipart upload is answered 507 when the
 * filesystem does not have the room the new object takes.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, open, readdir, rm, stat, statfs, unlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createS3rverMultipartMiddleware } from '@dropsite/testkit/control-api/s3rver-multipart';
import { createS3rverSigV4Middleware } from '@dropsite/testkit/control-api/s3rver-sigv4';

/** The tmpfs the store lives on: room for every row's uploads and builds, small enough to fill in a moment. */
const STORE_SIZE_BYTES = 512 * 1024 * 1024;
/** Room kept beside each spooled body for what s3rver writes with it (metadata, checksum files). */
const METADATA_ROOM_BYTES = 64 * 1024;
const FULL_XML =
  '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>XMinioStorageFull</Code><Message>Storage backend has reached its minimum free drive threshold. Please delete a few objects to proceed.</Message></Error>';

interface TKoaContext {
  req: Readable & { headers: Record<string, string | string[] | undefined> };
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  headers: Record<string, string | string[] | undefined>;
  status: number;
  body: unknown;
  type: string;
}
type TKoaMiddleware = (ctx: TKoaContext, next: () => Promise<void>) => Promise<void>;

interface TS3rver {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
  middleware: unknown[];
}
type TS3rverConstructor = new (options: { address: string; port: number; directory: string; silent: boolean }) => TS3rver;

export interface TFaultStore {
  endpoint: string;
  /** Where the objects are kept. */
  dir: string;
  /** 'tmpfs': a real filesystem of its own that really fills; 'simulated': ENOSPC raised by a switch in the write path. */
  filesystem: 'tmpfs' | 'simulated';
  /** Writes answered 507 because the filesystem was full. */
  refusedWrites(): number;
  /** Fills the filesystem (tmpfs) or turns on the switch (simulated); answers the bytes that were free. */
  fill(): Promise<number>;
  /** Gives the space back. */
  free(): Promise<void>;
  /** Bytes free on the store's filesystem now (simulated: 0 while full, else the folder's disk). */
  freeBytes(): Promise<number>;
  /** Stops the store, unmounts its filesystem and removes its folder. */
  close(): Promise<void>;
}

const errnoOf = (error: unknown) => (error as NodeJS.ErrnoException | undefined)?.code;

function enospc(): NodeJS.ErrnoException {
  return Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', errno: -28, syscall: 'write' });
}

/** Mounts a tmpfs of `bytes` on `dir`; false when this process may not mount. */
function mountTmpfs(dir: string, bytes: number): boolean {
  if (process.platform !== 'linux') return false;
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes},mode=0700`, 'tmpfs', dir], { stdio: 'ignore' });
  return mounted.status === 0;
}

export async function startFaultStore(): Promise<TFaultStore> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'dropsite-faults-store-'));
  const mounted = mountTmpfs(root, STORE_SIZE_BYTES);
  const dir = path.join(root, 'objects');
  const spoolDir = path.join(root, 'spool');
  await mkdir(dir, { recursive: true });
  await mkdir(spoolDir, { recursive: true });
  const fillerFile = path.join(root, 'filler');
  let switchedFull = false;
  let refused = 0;

  const freeBytes = async (): Promise<number> => {
    if (!mounted && switchedFull) return 0;
    const stats = await statfs(root);
    return stats.bavail * stats.bsize;
  };

  const refuse = (ctx: TKoaContext) => {
    refused++;
    ctx.status = 507;
    ctx.type = 'application/xml';
    ctx.body = FULL_XML;
  };

  /** The body spooled to the store's filesystem with room for its metadata; undefined when it does not fit. */
  const spool = async (body: Readable): Promise<Buffer | undefined> => {
    const file = path.join(spoolDir, randomUUID());
    const pieces: Buffer[] = [];
    const keep = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        if (switchedFull && !mounted) return callback(enospc());
        pieces.push(chunk);
        callback(null, chunk);
      },
      flush(callback) {
        if (switchedFull && !mounted) return callback(enospc());
        callback(null, Buffer.alloc(METADATA_ROOM_BYTES));
      },
    });
    try {
      await pipeline(body, keep, createWriteStream(file));
      return Buffer.concat(pieces);
    } catch (error) {
      if (errnoOf(error) === 'ENOSPC') return undefined;
      throw error;
    } finally {
      await unlink(file).catch(() => {});
    }
  };

  /** Bytes of the parts of a pending multipart upload (what completing it writes). */
  const partBytes = async (bucket: string, uploadId: string): Promise<number> => {
    const uploadDir = path.join(dir, bucket, '._S3rver_uploads', uploadId);
    let total = 0;
    for (const name of await readdir(uploadDir).catch(() => [] as string[])) {
      if (/^\d+$/.test(name)) total += (await stat(path.join(uploadDir, name))).size;
    }
    return total;
  };

  const guard: TKoaMiddleware = async (ctx, next) => {
    const [bucket, ...keyParts] = ctx.path.split('/').slice(1).map(decodeURIComponent);
    if (!bucket || keyParts.length === 0) return next();
    const copySource = ctx.headers['x-amz-copy-source'];
    if (ctx.method === 'PUT' && copySource === undefined) {
      const body = await spool(ctx.req);
      if (body === undefined) return refuse(ctx);
      ctx.req = Object.assign(Readable.from([body]), { headers: ctx.req.headers });
      return next();
    }
    let needed: number | undefined;
    if (ctx.method === 'PUT' && typeof copySource === 'string') {
      const source = decodeURIComponent(copySource.replace(/^\//, '').split('?')[0] ?? '');
      needed = await stat(path.join(dir, `${source}._S3rver_object`)).then(
        (s) => s.size,
        () => 0,
      );
    }
    const uploadId = ctx.query.uploadId;
    if (ctx.method === 'POST' && typeof uploadId === 'string' && /^[0-9a-f]{32}$/.test(uploadId)) needed = await partBytes(bucket, uploadId);
    // Starting a multipart upload writes its key and metadata files.
    if (ctx.method === 'POST' && 'uploads' in ctx.query) needed = 0;
    if (needed !== undefined && (await freeBytes()) < needed + METADATA_ROOM_BYTES) return refuse(ctx);
    return next();
  };

  const S3rver = createRequire(import.meta.url)('s3rver') as TS3rverConstructor;
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory: dir, silent: true });
  // As startS3rver (testkit/src/control-api/s3rver.ts) has it, with the full-disk guard after the signature check.
  server.middleware.unshift(createS3rverMultipartMiddleware(dir));
  server.middleware.unshift(guard);
  server.middleware.unshift(createS3rverSigV4Middleware());
  let port: number;
  try {
    ({ port } = await server.run());
  } catch (error) {
    if (mounted) spawnSync('umount', [root], { stdio: 'ignore' });
    await rm(root, { recursive: true, force: true });
    throw error;
  }

  return {
    endpoint: `http://127.0.0.1:${port}`,
    dir,
    filesystem: mounted ? 'tmpfs' : 'simulated',
    refusedWrites: () => refused,
    async fill() {
      const before = await freeBytes();
      if (!mounted) {
        switchedFull = true;
        return before;
      }
      // Written until the kernel refuses: the filesystem is full for every writer.
      const handle = await open(fillerFile, 'w');
      try {
        for (const size of [1024 * 1024, 4096]) {
          const block = Buffer.alloc(size);
          for (;;) {
            try {
              await handle.write(block);
            } catch (error) {
              if (errnoOf(error) === 'ENOSPC') break;
              throw error;
            }
          }
        }
      } finally {
        await handle.close();
      }
      return before;
    },
    async free() {
      switchedFull = false;
      await rm(fillerFile, { force: true });
    },
    freeBytes,
    async close() {
      await server.close();
      if (mounted) spawnSync('umount', [root], { stdio: 'ignore' });
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Every object key in the store's bucket (s3rver keeps each as `{key}._S3rver_object`). */
export async function storedKeys(store: Pick<TFaultStore, 'dir'>, bucket: string, prefix = ''): Promise<string[]> {
  const bucketDir = path.join(store.dir, bucket);
  const keys: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true }).catch(() => [])) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== '._S3rver_uploads') await walk(full);
      } else if (entry.name.endsWith('._S3rver_object')) {
        keys.push(path.relative(bucketDir, full).slice(0, -'._S3rver_object'.length));
      }
    }
  };
  await walk(bucketDir);
  return keys.filter((key) => key.startsWith(prefix)).sort();
}
