/**
 * A multer storage engine that streams each file part straight into Storage while
 * hashing it, so no upload is ever held whole in memory or on a temp disk.
 */
import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import type { Request } from 'express';
import type multer from 'multer';
import { uploadKey } from '@dropsite/shared';
import { AppError } from '../http/app-error.ts';
import { newId } from '../db/ids.ts';
import type { Storage } from '../storage/storage.ts';

export interface TStoredUpload {
  fileId: string;
  storageKey: string;
  size: number;
  sha256: string;
}

export interface TUploadTarget {
  siteId: string;
  /** Bytes still allowed for this delivery; the request is refused once it is passed. */
  remainingBytes: number;
  /** The refusal once it is passed (default: the delivery is larger than the plan allows). */
  refusal?: () => Error;
}

const targets = new WeakMap<Request, TUploadTarget>();

export function setUploadTarget(req: Request, target: TUploadTarget): void {
  targets.set(req, target);
}

export function getUploadTarget(req: Request): TUploadTarget | undefined {
  return targets.get(req);
}

export function createStreamingStorageEngine(storage: Storage): multer.StorageEngine {
  return {
    _handleFile(req, file, callback) {
      const target = targets.get(req);
      if (!target) {
        callback(new Error('Upload target was not prepared'));
        return;
      }
      const fileId = newId();
      const storageKey = uploadKey(target.siteId, fileId);
      const hash = createHash('sha256');
      let size = 0;
      const meter = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          size += chunk.length;
          target.remainingBytes -= chunk.length;
          if (target.remainingBytes < 0) {
            done(target.refusal?.() ?? new AppError('payload_too_large', 'This upload is larger than your plan allows'));
            return;
          }
          hash.update(chunk);
          done(null, chunk);
        },
      });
      // Storage may attach its own listeners only after some async set-up; until then a
      // broken part must not surface as an unhandled 'error' event. put() still rejects.
      meter.on('error', () => {});
      file.stream.on('error', (err) => meter.destroy(err));
      file.stream.pipe(meter);
      storage.put(storageKey, meter, { contentType: 'application/octet-stream' }).then(
        () => {
          const stored: TStoredUpload = { fileId, storageKey, size, sha256: hash.digest('hex') };
          // multer merges whatever the engine reports into req.files[i].
          callback(null, stored as Partial<Express.Multer.File>);
        },
        (err: unknown) => {
          // Drain what is left of this part so busboy can report the real cause.
          file.stream.resume();
          callback(err instanceof Error ? err : new Error(String(err)));
        },
      );
    },
    _removeFile(_req, file, callback) {
      const stored = file as unknown as Partial<TStoredUpload>;
      if (!stored.storageKey) {
        callback(null);
        return;
      }
      storage.delete(stored.storageKey).then(
        () => callback(null),
        (err: unknown) => callback(err instanceof Error ? err : new Error(String(err))),
      );
    },
  };
}
