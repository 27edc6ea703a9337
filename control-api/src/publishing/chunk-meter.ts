/**
 * The stream a chunk's bytes flow through on their way to storage: counts them, checks them,
 * and refuses them before they count. A checksum mismatch is found while the last piece is
 * still held back, so storage never receives the whole (bad) chunk and never stores it.
 *
 * Every chunk's CRC-32 is computed (zlib's, native: a fraction of a SHA-256 pass) and checked
 * against the X-Chunk-Crc32 sent with it; that CRC-32 is what the chunk is recorded with. The
 * whole file's SHA-256 is the one SHA-256 pass per byte (`alsoHash`, the running file hash). Only
 * a chunk sent with X-Chunk-Sha256 (older clients), or compared with a chunk recorded by its
 * SHA-256, is hashed with SHA-256 on its own as well.
 */
import { createHash, type Hash } from 'node:crypto';
import { Transform } from 'node:stream';
import { crc32 } from 'node:zlib';

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

/**
 * What a chunk is recorded with: 8 lower-case hex digits of its CRC-32. Chunks recorded before the
 * CRC-32 was (and rows of older processes) hold 64 hex digits, their SHA-256.
 */
export type TChunkChecksumKind = 'crc32' | 'sha256';

export function recordedChecksumKind(recorded: string): TChunkChecksumKind {
  return recorded.length === 64 ? 'sha256' : 'crc32';
}

/** Recomputes a recorded chunk checksum of `kind` over bytes fed in pieces (a chunk read back from storage). */
export function createChunkChecksum(kind: TChunkChecksumKind): { update(piece: Uint8Array): void; digest(): string } {
  if (kind === 'sha256') {
    const hash = createHash('sha256');
    return { update: (piece) => void hash.update(piece), digest: () => hash.digest('hex') };
  }
  let crc = 0;
  return {
    update(piece) {
      crc = crc32(piece, crc);
    },
    digest: () => crc32Hex(crc),
  };
}

function crc32Hex(crc: number): string {
  return crc.toString(16).padStart(8, '0');
}

/** What the client declared for a chunk; each given one is checked before the final bytes are let through. */
export interface TDeclaredChunkChecks {
  /** X-Chunk-Crc32, decoded. */
  crc32?: number | undefined;
  /** X-Chunk-Sha256 (lower-case hex), from older clients. */
  sha256?: string | undefined;
}

export interface TChunkMeter {
  stream: Transform;
  /** The chunk's recorded checksum (hex CRC-32); only once every byte has passed. */
  checksum(): string;
  /** Hex SHA-256 of the chunk, when one was declared or asked for; only once every byte has passed. */
  sha256(): string | undefined;
}

/**
 * `expectedSize` exact bytes, checked against `declared`. `alsoHash` receives the same bytes (the running
 * whole-file hash, when this chunk is next in order). `withSha256`: hash the chunk with SHA-256 even if none was declared.
 */
export function createChunkMeter(expectedSize: number, declared: TDeclaredChunkChecks, alsoHash?: Hash, withSha256 = false): TChunkMeter {
  const crc = createChunkChecksum('crc32');
  const hash = declared.sha256 !== undefined || withSha256 ? createChunkChecksum('sha256') : undefined;
  let seen = 0;
  let checksum: string | undefined;
  let sha256: string | undefined;
  const finish = (): Error | null => {
    checksum = crc.digest();
    sha256 = hash?.digest();
    const wrong = (declared.crc32 !== undefined && checksum !== crc32Hex(declared.crc32)) || (declared.sha256 !== undefined && sha256 !== declared.sha256);
    return wrong ? new ChunkChecksumMismatchError() : null;
  };
  const stream = new Transform({
    transform(piece: Buffer, _encoding, done) {
      seen += piece.length;
      if (seen > expectedSize) {
        done(new ChunkLengthError(seen, expectedSize));
        return;
      }
      crc.update(piece);
      hash?.update(piece);
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
      if (checksum === undefined) {
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
    checksum() {
      if (checksum === undefined) throw new Error('The chunk has not been read to its end');
      return checksum;
    },
    sha256() {
      if (checksum === undefined) throw new Error('The chunk has not been read to its end');
      return sha256;
    },
  };
}
