/**
 * Small stored objects kept in memory (thumbnails, display copies, posters): a gallery asks for the
 * same few hundred thumbnails again and again, and reading one from storage took an open, a stat, a
 * read and a close through the thread pool each time, several times the cost of the rest of the
 * request. An entry answers only for the object's current version (its ETag, or its size and time of
 * writing), which the caller has just read from storage, so a rewritten or deleted object is never
 * answered from here. Bounded in bytes, oldest out.
 *
 * Derived objects are content-addressed (`derived/{sha256}/…`: what was made from those bytes, sent
 * with an ETag of the hash and cached by browsers for a year): one kept is answered without asking
 * storage for its version first, which was a stat and a read of its metadata through the thread pool
 * on every thumbnail. The runtime's storage tells the memo of every write and delete made through it
 * (`forget`), so one rewritten or deleted in this process is never answered from the old bytes.
 */
import { isDerivedKey } from '@dropsite/shared';

export interface TObjectMemo {
  /** The bytes of `key`, if kept for exactly this version. */
  get(key: string, etag: string | undefined): Buffer | undefined;
  /** Keeps the bytes when they are small enough; returns whether they were kept. */
  set(key: string, etag: string | undefined, bytes: Buffer): boolean;
  /** Whether an object of this size would be kept (larger ones are streamed, never read whole). */
  fits(size: number): boolean;
  /** The bytes of a content-addressed key (isDerivedKey), whatever version they were kept under. */
  peek(key: string): Buffer | undefined;
  /** Drops the entry of a key written or deleted, or (`isPrefix`) of every key under a prefix deleted. */
  forget(keyOrPrefix: string, isPrefix: boolean): void;
}

export function createObjectMemo(options: { maxBytes: number; maxObjectBytes: number }): TObjectMemo {
  const entries = new Map<string, { etag: string; bytes: Buffer }>();
  let total = 0;
  const drop = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    total -= entry.bytes.length;
  };
  return {
    get(key, etag) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (etag === undefined || entry.etag !== etag) {
        drop(key);
        return undefined;
      }
      // Used again: to the back of the line.
      entries.delete(key);
      entries.set(key, entry);
      return entry.bytes;
    },
    set(key, etag, bytes) {
      if (etag === undefined || bytes.length > options.maxObjectBytes) return false;
      drop(key);
      while (total + bytes.length > options.maxBytes && entries.size > 0) drop(entries.keys().next().value!);
      entries.set(key, { etag, bytes });
      total += bytes.length;
      return true;
    },
    fits: (size) => size <= options.maxObjectBytes,
    peek(key) {
      if (!isDerivedKey(key)) return undefined;
      const entry = entries.get(key);
      if (!entry) return undefined;
      entries.delete(key);
      entries.set(key, entry);
      return entry.bytes;
    },
    forget(keyOrPrefix, isPrefix) {
      if (!isPrefix) {
        drop(keyOrPrefix);
        return;
      }
      for (const key of [...entries.keys()]) if (key.startsWith(keyOrPrefix)) drop(key);
    },
  };
}
