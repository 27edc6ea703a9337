/**
 * Chunk uploads received at once, per upload session and per client address (UPLOAD_CHUNKS_IN_FLIGHT_*):
 * the wizard sends three at a time (the defaults allow twice that per session), so a client holding
 * dozens of chunk connections open (each a socket and an open file) is refused with 429 and
 * Retry-After before its body is read. In memory, per API process, like the other limits.
 */
import type { TConfig } from '../config/config.ts';
import { rateLimitedError } from '../access/rate-limiter.ts';

export const CHUNKS_IN_FLIGHT_MESSAGE = 'Too many chunks of this upload are being sent at once. Please wait a moment and try again.';
/** Seconds a refused chunk is told to wait: about as long as a chunk in flight takes to arrive. */
const RETRY_AFTER_SECONDS = 2;

export interface TChunksInFlight {
  /** Counts one chunk of `sessionId` from `address` as in flight, or throws the 429; call the returned function once it is done. */
  admit(sessionId: string, address: string): () => void;
}

export function createChunksInFlight(limits: Pick<TConfig['http'], 'chunksInFlightPerSession' | 'chunksInFlightPerAddress'>): TChunksInFlight {
  const bySession = new Map<string, number>();
  const byAddress = new Map<string, number>();
  const change = (counts: Map<string, number>, key: string, delta: number) => {
    const next = (counts.get(key) ?? 0) + delta;
    if (next <= 0) counts.delete(key);
    else counts.set(key, next);
  };
  return {
    admit(sessionId, address) {
      if ((bySession.get(sessionId) ?? 0) >= limits.chunksInFlightPerSession || (byAddress.get(address) ?? 0) >= limits.chunksInFlightPerAddress) {
        throw rateLimitedError({ allowed: false, retryAfterSeconds: RETRY_AFTER_SECONDS }, CHUNKS_IN_FLIGHT_MESSAGE);
      }
      change(bySession, sessionId, 1);
      change(byAddress, address, 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        change(bySession, sessionId, -1);
        change(byAddress, address, -1);
      };
    },
  };
}
