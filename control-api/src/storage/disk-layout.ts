/**
 * Where the disk storage keeps things under its root: each object as a plain file at its key, its
 * content type, cache control, tag and metadata in a sidecar in a mirror tree, temp files, and
 * multipart uploads, the last three in folders no key may use.
 */
import { readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { isMissing, publishFile, readTextIfPresent, removeEmptyParents, resolveInside, unlinkIfPresent } from './disk-files.ts';
import { assertSafeKey } from './storage.ts';
import type { TPutOptions } from './storage.ts';

const TMP_DIR = '.tmp';
/** Content type and cache control live in a mirror tree so object files stay plain bytes. */
const META_DIR = '.meta';
/** Multipart uploads (disk-multipart.ts). */
const MULTIPART_DIR = '.multipart';
export const RESERVED_TOP_LEVEL = new Set([TMP_DIR, META_DIR, MULTIPART_DIR]);

export interface TSidecar {
  contentType?: string;
  cacheControl?: string;
  /**
   * The entity tag put with the object, and the inode and size of the file it was put with. The
   * sidecar is published before its object, so a reader between the two (or one that opened the
   * previous object) finds another inode and answers no tag rather than the new tag on old bytes.
   */
  etag?: string;
  ino?: number;
  size?: number;
  /** User metadata put with the object (TPutOptions.metadata). */
  metadata?: Record<string, string>;
}

/** The sidecar's entity tag when it was written for exactly this file. */
export function etagOf(sidecar: TSidecar | undefined, file: { ino: number; size: number }): string | undefined {
  return sidecar?.etag !== undefined && sidecar.ino === file.ino && sidecar.size === file.size ? sidecar.etag : undefined;
}

/**
 * The sidecar's user metadata when it was written for exactly this file: a sidecar with a tag is
 * published before its object, so its metadata holds only for the file the tag names (a sidecar
 * without a tag has nothing to check).
 */
export function metadataOf(sidecar: TSidecar | undefined, file: { ino: number; size: number }): Record<string, string> | undefined {
  if (sidecar?.etag !== undefined && etagOf(sidecar, file) === undefined) return undefined;
  return sidecar?.metadata;
}

export function buildSidecar(options: TPutOptions, file?: { ino: number; size: number }): TSidecar | undefined {
  if (options.contentType === undefined && options.cacheControl === undefined && options.etag === undefined && options.metadata === undefined) return undefined;
  const sidecar: TSidecar = {
    contentType: options.contentType,
    cacheControl: options.cacheControl,
    ...(options.metadata === undefined ? {} : { metadata: { ...options.metadata } }),
  };
  return options.etag !== undefined && file ? { ...sidecar, etag: options.etag, ino: file.ino, size: file.size } : sidecar;
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string');
}

/** Read synchronously, like a stat (see statFile). */
export async function readSidecar(path: string): Promise<TSidecar | undefined> {
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { contentType, cacheControl, etag, ino, size, metadata } = parsed as Record<string, unknown>;
    return {
      contentType: typeof contentType === 'string' ? contentType : undefined,
      cacheControl: typeof cacheControl === 'string' ? cacheControl : undefined,
      ...(isStringRecord(metadata) ? { metadata } : {}),
      ...(typeof etag === 'string' && typeof ino === 'number' && typeof size === 'number' ? { etag, ino, size } : {}),
    };
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

export interface TDiskLayout {
  root: string;
  tmpRoot: string;
  multipartRoot: string;
  /** The folder the sidecars' mirror tree is in. */
  sidecarRoot: string;
  /** The file of the object at `key`; throws for an unsafe key or one in a reserved folder. */
  resolveObjectPath(key: string): string;
  resolveSidecarPath(key: string): string;
  /** Puts the sidecar in place (through `tmpPath`), or removes a stale one when there is none. */
  publishSidecar(sidecar: TSidecar | undefined, tmpPath: string, sidecarPath: string, key: string): Promise<void>;
  removeSidecar(sidecarPath: string): Promise<void>;
}

export function createDiskLayout(rootDir: string): TDiskLayout {
  const root = resolve(rootDir);
  function resolveObjectPath(key: string): string {
    assertSafeKey(key);
    const firstSegment = key.split('/', 1)[0] ?? '';
    if (RESERVED_TOP_LEVEL.has(firstSegment)) {
      throw new Error(`Unsafe storage key: ${JSON.stringify(key)} is reserved by the disk driver`);
    }
    return resolveInside(root, key);
  }

  function resolveSidecarPath(key: string): string {
    return resolveInside(join(root, META_DIR), `${key}.json`);
  }

  /** The temp folder is made once per process (and again should something remove it). */

  async function publishSidecar(sidecar: TSidecar | undefined, tmpPath: string, sidecarPath: string, key: string): Promise<void> {
    if (!sidecar) {
      // A previous put of the same key may have left a content type that no longer applies.
      await rm(sidecarPath, { force: true });
      return;
    }
    const json = JSON.stringify(sidecar);
    // Re-publishing an object (a rebuilt site) mostly keeps its content type: leave an identical sidecar be.
    if (readTextIfPresent(sidecarPath) === json) return;
    await writeFile(tmpPath, json, { flag: 'wx', flush: true });
    await publishFile(tmpPath, sidecarPath, key);
  }

  async function removeSidecar(sidecarPath: string): Promise<void> {
    if (await unlinkIfPresent(sidecarPath)) await removeEmptyParents(sidecarPath, join(root, META_DIR));
  }

  return {
    root,
    tmpRoot: join(root, TMP_DIR),
    multipartRoot: join(root, MULTIPART_DIR),
    sidecarRoot: join(root, META_DIR),
    resolveObjectPath,
    resolveSidecarPath,
    publishSidecar,
    removeSidecar,
  };
}
