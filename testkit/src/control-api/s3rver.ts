/** A real S3-compatible server on loopback for tests (s3rver ships no type declarations). */
import { createRequire } from 'node:module';
import { createS3rverMultipartMiddleware } from './s3rver-multipart.ts';
import { createS3rverSigV4Middleware } from './s3rver-sigv4.ts';
import { makeS3rverWritesDurable, type TS3rverStore } from './s3rver-durable-writes.ts';

export interface TS3rver {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
  /** Koa's middleware list (s3rver is a Koa app); composed when run() starts listening. */
  middleware: unknown[];
  store: TS3rverStore;
}

type TS3rverConstructor = new (options: { address: string; port: number; directory: string; silent: boolean }) => TS3rver;

const S3rver = createRequire(import.meta.url)('s3rver') as TS3rverConstructor;

/**
 * Starts s3rver on a random loopback port, keeping objects in `directory`. The multipart calls
 * s3rver lacks (ListParts, AbortMultipartUpload, ListMultipartUploads) are added to it, and so is
 * the check of presigned URLs' signatures and expiry; objects and parts are answered only once
 * they are written (s3rver-durable-writes.ts). `now` is the clock presigned URLs expire by.
 */
export async function startS3rver(directory: string, options: { now?: () => number } = {}): Promise<{ server: TS3rver; endpoint: string }> {
  const server = new S3rver({ address: '127.0.0.1', port: 0, directory, silent: true });
  makeS3rverWritesDurable(server.store);
  server.middleware.unshift(createS3rverMultipartMiddleware(directory));
  // First of all: presigned requests are checked as S3 checks them (s3rver takes any SigV4 signature).
  server.middleware.unshift(createS3rverSigV4Middleware(options.now));
  const { port } = await server.run();
  return { server, endpoint: `http://127.0.0.1:${port}` };
}
