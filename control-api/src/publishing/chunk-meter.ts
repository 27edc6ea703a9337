/**
 * The stream a chunk's bytes flow through on their way to storage: counts them, hashes them,
 * and refuses them before they count. A checksum mismatch is found while the last piece is
 * still held back, so storage never receives the whole (bad) chunk and never stores it.
 */
import { createHash, type Hash } from 'node:crypto';
import { Transform } from 'node:stream';

export class ChunkChecksumMismatchError extends Error {
  constructor() {
    super('Chunk checksum mismatch');
    this.name = 'ChunkChecksumMismatchError';
  }
}

export class ChunkLengthError extends Error {
  readonly received: number;
  readonly expected: number;
  constructor(received: number, expected: number) {
    super(received > expected ? `Chunk is longer than its ${expected} bytes` : `Chunk ended after ${received} of its ${expected} bytes`);
    this.name = 'ChunkLengthError';
    this.received = received;
    this.expected = expected;
  }
}

export interface TChunkMeter {
  stream: Transform;
  /** Hex SHA-256 of the chunk; only once every byte has passed. */
  digest(): string;
}

/**
 * `expectedSize` exact bytes; `declaredSha256` (lower-case hex) checked before the final bytes are let through.
 * `alsoHash` receives the same bytes (the running whole-file hash, when this chunk is next in order).
 */
export function createChunkMeter(expectedSize: number, declaredSha256: string | undefined, alsoHash?: Hash): TChunkMeter {
  const hash = createHash('sha256');
  let seen = 0;
  let digest: string | undefined;
  const finish = (): Error | null => {
    digest = hash.digest('hex');
    return declaredSha256 !== undefined && digest !== declaredSha256 ? new ChunkChecksumMismatchError() : null;
  };
  const stream = new Transform({
    transform(piece: Buffer, _encoding, done) {
      seen += piece.length;
      if (seen > expectedSize) {
        done(new ChunkLengthError(seen, expectedSize));
        return;
      }
      hash.update(piece);
      alsoHash?.update(piece);
      if (seen === expectedSize) {
        const error = finish();
        if (error) {
          done(error);
          return;
        }
      }
      done(null, piece);
    },
    flush(done) {
      if (seen < expectedSize) {
        done(new ChunkLengthError(seen, expectedSize));
        return;
      }
      // An empty chunk never reaches transform().
      if (digest === undefined) {
        done(finish());
        return;
      }
      done(null);
    },
  });
  // Storage attaches its listeners after some async set-up; until then a refused or cut chunk must not
  // surface as an unhandled 'error' event. The failure still reaches the caller through the storage write.
  stream.on('error', () => {});
  return {
    stream,
    digest() {
      if (digest === undefined) throw new Error('The chunk has not been read to its end');
      return digest;
    },
  };
}
