/**
 * Counts, per top-level folder, the objects written or deleted through a storage: an in-process
 * cache of stored objects (a site's page views) compares the count to know that nothing under its
 * folder changed since it read. Writes by other processes are not seen here: such caches also
 * compare what those writes are always followed by (a site's row, for pages). `onChange` hears of
 * each key written or deleted (and each prefix deleted), for a cache that drops just that entry.
 */
import type { Storage } from './storage.ts';

const topLevelOf = (key: string) => key.split('/', 1)[0] ?? '';

export function countStorageChanges(storage: Storage, onChange?: (keyOrPrefix: string, isPrefix: boolean) => void): Storage {
  // Counting twice adds nothing; a listener needs a wrapper of its own.
  if (storage.changes && !onChange) return storage;
  const counts = new Map<string, number>();
  const bump = (key: string, isPrefix = false) => {
    counts.set(topLevelOf(key), (counts.get(topLevelOf(key)) ?? 0) + 1);
    onChange?.(key, isPrefix);
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
    changes: (topLevel) => counts.get(topLevel) ?? 0,
  };
}
