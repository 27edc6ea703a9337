/**
 * The whole-file SHA-256 of chunked uploads, computed while the chunks arrive, so completing a
 * large upload does not read the file again. Chunks are hashed in order as they become contiguous:
 * the next chunk in order is hashed from the bytes streaming in (a tap on a copy of the running
 * state, kept only once the chunk is stored); a chunk that arrived early is read back from storage
 * once the gap before it closes (one chunk at a time, never buffered), or, where storage cannot read
 * a part back, the file is left to be hashed at complete.
 *
 * The state lives in this process only. After a restart, a replaced chunk, a chunk stored by another
 * process, or any read failure, `digest` answers undefined and the caller reads the assembled file
 * as before. `digest` also checks that the chunks hashed are the ones assembled (by their etags).
 */
import { createHash, type Hash } from 'node:crypto';

/** Bytes of one stored chunk, read back in order. */
export type TReadChunk = (index: number) => Promise<AsyncIterable<Uint8Array> | Iterable<Uint8Array>>;

interface TFileState {
  hash: Hash;
  /** Index of the next chunk to hash. */
  next: number;
  /** Etag of every chunk hashed so far, by index. */
  hashed: Map<number, string>;
  /** Chunks stored ahead of `next`, waiting for the gap to close. */
  waiting: Map<number, string>;
  /** The chunk whose bytes are being tapped as they stream in, if any. */
  tapping: number | undefined;
  /** Read-backs in progress; `digest` waits for them. */
  chain: Promise<void>;
  reading: boolean;
  /** The file can no longer be hashed here: `digest` answers undefined. */
  broken: boolean;
}

export interface TChunkTap {
  /** Receives the chunk's bytes as they pass (the chunk meter feeds it). */
  readonly hash: Hash;
}

export interface TRunningFileHashes {
  /** A tap for chunk `index` when it is the next one in order and nothing else is hashing this file; else undefined. */
  begin(fileId: string, index: number): TChunkTap | undefined;
  /**
   * Chunk `index` is stored (durably, with this etag). With its tap, its bytes are already hashed;
   * without, it is read back with `readChunk` once every chunk before it is hashed (undefined: storage cannot).
   */
  stored(fileId: string, index: number, etag: string, tap: TChunkTap | undefined, readChunk: TReadChunk | undefined): void;
  /** The tapped chunk was not stored (refused, cut, or recorded by another writer). */
  abandon(fileId: string, tap: TChunkTap | undefined): void;
  /**
   * The file's SHA-256 (hex) when chunks 0..n-1 were all hashed here with exactly these etags
   * (`etags` by index, n = its size); otherwise undefined.
   */
  digest(fileId: string, etags: ReadonlyMap<number, string>): Promise<string | undefined>;
  forget(fileId: string): void;
  /** Files followed now (for tests and gauges). */
  size(): number;
}

/** Files followed at once; beyond, the oldest is dropped (and hashed at complete instead). */
const DEFAULT_MAX_FILES = 1000;

export function createRunningFileHashes(options: { maxFiles?: number; onError?: (error: unknown) => void } = {}): TRunningFileHashes {
  const maxFiles = options.maxFiles ?? DEFAULT_MAX_FILES;
  const files = new Map<string, TFileState>();
  const taps = new WeakMap<TChunkTap, { fileId: string; index: number; state: TFileState }>();

  function stateOf(fileId: string): TFileState {
    let state = files.get(fileId);
    if (!state) {
      state = { hash: createHash('sha256'), next: 0, hashed: new Map(), waiting: new Map(), tapping: undefined, chain: Promise.resolve(), reading: false, broken: false };
      files.set(fileId, state);
      if (files.size > maxFiles) files.delete(files.keys().next().value!);
    }
    return state;
  }

  function drain(state: TFileState, readChunk: TReadChunk | undefined): void {
    if (state.reading || state.broken || !state.waiting.has(state.next)) return;
    if (!readChunk) {
      state.broken = true;
      return;
    }
    state.reading = true;
    state.chain = (async () => {
      try {
        while (!state.broken && state.waiting.has(state.next)) {
          const index = state.next;
          const etag = state.waiting.get(index)!;
          const hash = state.hash.copy();
          for await (const piece of await readChunk(index)) hash.update(piece);
          // Replaced while it was being read: the bytes read may be either version.
          if (state.waiting.get(index) !== etag) {
            state.broken = true;
            break;
          }
          state.waiting.delete(index);
          state.hash = hash;
          state.hashed.set(index, etag);
          state.next = index + 1;
        }
      } catch (error) {
        state.broken = true;
        options.onError?.(error);
      } finally {
        state.reading = false;
      }
    })();
  }

  return {
    begin(fileId, index) {
      const state = stateOf(fileId);
      if (state.broken || state.reading || state.tapping !== undefined || state.next !== index) return undefined;
      const tap: TChunkTap = { hash: state.hash.copy() };
      state.tapping = index;
      taps.set(tap, { fileId, index, state });
      return tap;
    },

    stored(fileId, index, etag, tap, readChunk) {
      const tapped = tap ? taps.get(tap) : undefined;
      const state = tapped?.state ?? stateOf(fileId);
      if (files.get(fileId) !== state) return;
      if (tapped) {
        taps.delete(tap!);
        state.tapping = undefined;
        if (tapped.index === index && state.next === index && !state.broken) {
          state.hash = tap!.hash;
          state.hashed.set(index, etag);
          state.next = index + 1;
          drain(state, readChunk);
          return;
        }
      }
      // A chunk stored again after it was hashed (or while waiting) holds other bytes under a new etag.
      if (index < state.next || (state.waiting.has(index) && state.waiting.get(index) !== etag)) {
        state.broken = true;
        return;
      }
      state.waiting.set(index, etag);
      drain(state, readChunk);
    },

    abandon(fileId, tap) {
      const tapped = tap ? taps.get(tap) : undefined;
      if (!tapped) return;
      taps.delete(tap!);
      if (tapped.state.tapping === tapped.index) tapped.state.tapping = undefined;
      void fileId;
    },

    async digest(fileId, etags) {
      const state = files.get(fileId);
      if (!state) return undefined;
      await state.chain;
      if (state.broken || state.tapping !== undefined || state.next !== etags.size || state.hashed.size !== etags.size) return undefined;
      for (const [index, etag] of etags) if (state.hashed.get(index) !== etag) return undefined;
      return state.hash.copy().digest('hex');
    },

    forget(fileId) {
      files.delete(fileId);
    },

    size: () => files.size,
  };
}
