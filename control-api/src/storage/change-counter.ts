/**
 * Notes, per top-level folder (`sites`) and per folder below it (`sites/{slug}`), when objects were
 * last written or deleted through a storage: an in-process cache of stored objects (a site's page
 * views) compares the mark to know that nothing under its folder changed since it read, so a publish
 * of one site leaves the others' cached pages alone. Writes by other processes are not seen here:
 * such caches also compare what those writes are always followed by (a site's row, for pages).
 * `onChange` hears of each key written or deleted (and each prefix deleted), for a cache that drops
 * just that entry.
 */
import type { Storage } from './storage.ts';

/** Folders below the top level remembered at most; past it they are forgotten, and all count as changed. */
const MAX_FOLDERS = 20_000;

/** `a` and `a/b` of a key `a/b/c` (a top-level key has no second level). */
function foldersOf(key: string): [string, string | undefined] {
  const first = key.indexOf('/');
  if (first < 0) return [key, undefined];
  const second = key.indexOf('/', first + 1);
  return [key.slice(0, first), second < 0 ? undefined : key.slice(0, second)];
}

export function countStorageChanges(storage: Storage, onChange?: (keyOrPrefix: string, isPrefix: boolean) => void): Storage {
  // Counting twice adds nothing; a listener needs a wrapper of its own.
  if (storage.changes && !onChange) return storage;
  /** Every change made through this storage, numbered in order. */
  let sequence = 0;
  const topLevel = new Map<string, number>();
  const folders = new Map<string, number>();
  /** Folders changed before this mark may have been forgotten: they answer at least this. */
  let forgottenUpTo = 0;
  const bump = (keyOrPrefix: string, isPrefix = false) => {
    sequence++;
    const [top, folder] = foldersOf(keyOrPrefix);
    topLevel.set(top, sequence);
    if (folder !== undefined) {
      if (folders.size >= MAX_FOLDERS) {
        folders.clear();
        forgottenUpTo = sequence;
      }
      folders.set(folder, sequence);
    } else if (isPrefix) {
      // A whole top-level folder (or everything) deleted: every folder under it changed.
      folders.clear();
      forgottenUpTo = sequence;
    }
    onChange?.(keyOrPrefix, isPrefix);
  };
  return {
    ...storage,
    async put(key, body, options) {
      try {
        return await storage.put(key, body, options);
      } finally {
        bump(key);
      }
    },
    async delete(key) {
      try {
        await storage.delete(key);
      } finally {
        bump(key);
      }
    },
    async deletePrefix(prefix) {
      try {
        return await storage.deletePrefix(prefix);
      } finally {
        bump(prefix, true);
      }
    },
    async completeMultipartUpload(upload, parts) {
      try {
        return await storage.completeMultipartUpload(upload, parts);
      } finally {
        bump(upload.key);
      }
    },
    changes(prefix) {
      const folder = prefix.endsWith('/') ? prefix.slice(0, -1) : prefix;
      if (!folder.includes('/')) return topLevel.get(folder) ?? 0;
      return Math.max(folders.get(folder) ?? 0, forgottenUpTo);
    },
  };
}
