/**
 * The upload-session modules without HTTP: a runtime of real engines (SQLite, disk storage, the
 * in-process queue, no builder) in a temp folder, the parts the service wires together, and chunk
 * inputs as the route would make them.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { expect } from 'vitest';
import { CHUNK_SIZE, ZUploadMetadataSchema } from '@dropsite/shared';
import { createFakeClock, testConfig } from './test-app.ts';
import { type TAppDeps, createLogger, createRuntime, type TRuntime } from '@dropsite/control-api';
import {
  AppError,
  createAssembly,
  createChunkReceipt,
  type TChunkInput,
  createRunningFileHashes,
  createSessionLifecycle,
  type TInitInput,
  createStoredChunkCheck,
} from '@dropsite/control-api/internals';
import { crc32Base64 } from '../bytes.ts';

/** The AppError a call is refused with (the test fails when it resolves, or rejects with anything else). */
export async function appErrorOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

export function chunkOf(bytes: Uint8Array, index: number): Buffer {
  return Buffer.from(bytes.subarray(index * CHUNK_SIZE, Math.min(bytes.byteLength, (index + 1) * CHUNK_SIZE)));
}

/** An init of one chunked session for these files. */
export function initInput(files: ReadonlyArray<{ name: string; bytes: Uint8Array }>, extra: Partial<TInitInput> = {}): TInitInput {
  return {
    protocol: 'chunked',
    files: files.map((f) => ({ name: f.name, size: f.bytes.byteLength, type: 'application/octet-stream' })),
    details: ZUploadMetadataSchema.parse({ title: 'Launch film', description: 'Final cut', authorName: 'Mara Lind' }),
    idempotencyKey: undefined,
    anonymousSessionId: null,
    ownerCreatorId: null,
    workspaceId: null,
    ...extra,
  };
}

/**
 * A chunk as the route hands it over: its bytes, their length, their CRC-32 as the wizard sends it (unless
 * `crc32` is false; a string is sent instead) and, as older clients send it, a SHA-256 when `sha` gives one.
 */
export function chunkInput(
  sessionId: string,
  fileId: string,
  index: number,
  bytes: Uint8Array,
  options: { sha?: string; crc32?: string | false; body?: Readable; cancel?: () => void } = {},
): TChunkInput {
  return {
    sessionId,
    fileId,
    index,
    isLast: undefined,
    contentLength: bytes.byteLength,
    declaredSha256: options.sha,
    declaredCrc32: options.crc32 === false ? undefined : (options.crc32 ?? crc32Base64(bytes)),
    body: options.body ?? Readable.from([Buffer.from(bytes)]),
    cancel: options.cancel ?? (() => {}),
  };
}

export interface TSessionParts {
  deps: TAppDeps;
  clock: ReturnType<typeof createFakeClock>;
  lifecycle: ReturnType<typeof createSessionLifecycle>;
  receipt: ReturnType<typeof createChunkReceipt>;
  assembly: ReturnType<typeof createAssembly>;
  runtime: TRuntime;
  dataDir: string;
  /** Closes the runtime; the folder stays when it was given (a restart on the same data). */
  close(): Promise<void>;
}

/** The three parts on one runtime, wired as upload-sessions.service.ts wires them. */
export async function startSessionParts(options: { dataDir?: string } = {}): Promise<TSessionParts> {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'dropsite-sessions-')));
  const clock = createFakeClock(Date.now());
  const runtime = await createRuntime(testConfig(dataDir, { publicUrl: 'http://127.0.0.1:1' }), { runBuilder: false, log: createLogger('silent'), clock });
  const deps = runtime.deps;
  const runningHashes = createRunningFileHashes();
  const storedChunks = createStoredChunkCheck(deps);
  const receipt = createChunkReceipt(deps, { runningHashes, storedChunks });
  const lifecycle = createSessionLifecycle(deps, { runningHashes, storedChunks, cancelInFlight: receipt.cancelInFlight });
  const assembly = createAssembly(deps, { runningHashes, storedChunks });
  return {
    deps,
    clock,
    lifecycle,
    receipt,
    assembly,
    runtime,
    dataDir,
    async close() {
      await runtime.close();
      if (options.dataDir === undefined) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
