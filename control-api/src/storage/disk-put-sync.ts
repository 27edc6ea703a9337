/**
 * A put of bytes already in memory, every file-system call of it made synchronously, in order, by
 * one thread: the writer threads (disk-writer.ts) run it, so a put costs the event loop one message
 * instead of a dozen trips through libuv's thread pool (about half the CPU of a page's three objects).
 * The steps are those of the streaming put in disk-objects.ts: the bytes to a new temp file, made durable;
 * the sidecar (tag with the file's inode, metadata) published first; the file renamed into place; its
 * folder fsynced. A failure removes the temp files and a sidecar that would describe nothing.
 */
import { closeSync, fdatasyncSync, fstatSync, fsyncSync, mkdirSync, openSync, renameSync, rmdirSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, sep } from 'node:path';
import { errorCode, readTextIfPresent, type TWrittenFile } from './disk-files.ts';
import { buildSidecar } from './disk-layout.ts';
import type { TPutOptions } from './storage.ts';

export interface TPutFileJob {
  tmpRoot: string;
  tmpData: string;
  tmpSidecar: string;
  objectPath: string;
  sidecarPath: string;
  /** The store's root, where pruning a removed sidecar's empty folders stops. */
  sidecarRoot: string;
  bytes: Uint8Array;
  options: TPutOptions;
}

/** Creates `path` (never overwriting) with the bytes, its data and size made durable (fdatasync) before it is closed. */
function writeNewFileSync(path: string, bytes: Uint8Array): TWrittenFile {
  const fd = openSync(path, 'wx');
  try {
    let at = 0;
    while (at < bytes.byteLength) at += writeSync(fd, bytes, at, bytes.byteLength - at);
    fdatasyncSync(fd);
    const info = fstatSync(fd);
    return { size: info.size, mtimeMs: info.mtimeMs, ino: info.ino };
  } finally {
    closeSync(fd);
  }
}

/** Renames into place, making the folder when a rename finds it missing (twice: a delete may prune a fresh one). */
function publishFileSync(from: string, to: string): void {
  for (let attempt = 0; ; attempt++) {
    try {
      renameSync(from, to);
      return;
    } catch (error) {
      if (errorCode(error) !== 'ENOENT' || attempt === 2) throw error;
      mkdirSync(dirname(to), { recursive: true });
    }
  }
}

function removeSidecarSync(sidecarPath: string, stopAt: string): void {
  try {
    unlinkSync(sidecarPath);
  } catch {
    return;
  }
  for (let dir = dirname(sidecarPath); dir !== stopAt && dir.startsWith(stopAt + sep); dir = dirname(dir)) {
    try {
      rmdirSync(dir);
    } catch {
      return;
    }
  }
}

/** Makes the rename durable; best effort, as not every platform can fsync a folder. */
function syncDirectorySync(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // Durability of the directory entry is a bonus, not part of the contract.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

export function putFileSync(job: TPutFileJob): TWrittenFile {
  try {
    let written: TWrittenFile;
    try {
      written = writeNewFileSync(job.tmpData, job.bytes);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
      mkdirSync(job.tmpRoot, { recursive: true }); // the temp folder went away: make it again, once
      written = writeNewFileSync(job.tmpData, job.bytes);
    }
    // A rename keeps the inode, so the tag names the file that becomes the object.
    const sidecar = buildSidecar(job.options, written);
    if (!sidecar) {
      // A previous put of the same key may have left a content type that no longer applies.
      rmSync(job.sidecarPath, { force: true });
    } else {
      const json = JSON.stringify(sidecar);
      if (readTextIfPresent(job.sidecarPath) !== json) {
        const fd = openSync(job.tmpSidecar, 'wx');
        try {
          writeSync(fd, json);
          fdatasyncSync(fd);
        } finally {
          closeSync(fd);
        }
        publishFileSync(job.tmpSidecar, job.sidecarPath);
      }
    }
    try {
      publishFileSync(job.tmpData, job.objectPath);
    } catch (error) {
      // The object cannot exist at this path, so the sidecar just placed would describe nothing.
      if (sidecar) removeSidecarSync(job.sidecarPath, job.sidecarRoot);
      throw error;
    }
    syncDirectorySync(dirname(job.objectPath));
    return written;
  } catch (error) {
    rmSync(job.tmpData, { force: true });
    rmSync(job.tmpSidecar, { force: true });
    throw error;
  }
}
