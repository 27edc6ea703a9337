/**
 * The content-hash cache of every derivation but images (derive-image.ts keeps its own, tuned
 * path): derived/{sha256}/meta.json, written last, marks a finished entry. A failure that the
 * content itself decides (not a PDF, a zip bomb, binary bytes named .txt) is cached too, so a
 * rebuild does not redo it; a failure of the machine (a tool missing, a timeout, storage
 * trouble) is not, so the next build tries again.
 */
import { buffer } from 'node:stream/consumers';
import { ZDerivedMetadataSchema, derivedKeys, type TDerivation, type TDerivedMetadata, type TFileKind } from '@dropsite/shared';
import { IMMUTABLE_CACHE_CONTROL } from './derive-image.ts';
import type { BuilderStorage, TBuildFile } from './types.ts';

/** A preview that cannot be made, for a reason a visitor may read. `final` when the content itself decides it. */
export class PreviewUnavailableError extends Error {
  readonly final: boolean;
  constructor(message: string, options: { final: boolean; cause?: unknown }) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'PreviewUnavailableError';
    this.final = options.final;
  }
}

/** True when the metadata holds everything the derivation makes, so nothing has to be done again. */
export function isCompleteDerivation(metadata: TDerivedMetadata, derivation: TDerivation): boolean {
  if (metadata.error) return false;
  switch (derivation) {
    case 'pdf':
      // Entries from before the first page was kept at display size are made again, once.
      return metadata.pages !== undefined && metadata.thumbnail !== undefined && metadata.display !== undefined;
    case 'office':
      return metadata.pdf !== undefined && metadata.pages !== undefined;
    case 'video':
    case 'audio':
      return metadata.media !== undefined;
    case 'zip':
      return metadata.archive !== undefined;
    case 'text':
      return metadata.text !== undefined;
    default:
      return false;
  }
}

/** A cache hit for this file and derivation, from its row or from meta.json; null on a miss. */
export async function readDerivationCache(
  storage: BuilderStorage,
  file: Pick<TBuildFile, 'sha256' | 'metadata'>,
  kind: TFileKind,
  derivation: TDerivation,
): Promise<TDerivedMetadata | null> {
  const row = file.metadata;
  if (row && row.sha256 === file.sha256 && row.kind === kind && isCompleteDerivation(row, derivation)) return row;
  const key = derivedKeys(file.sha256).meta;
  try {
    if (!(await storage.head(key))) return null;
    const { body } = await storage.get(key);
    const parsed = ZDerivedMetadataSchema.safeParse(JSON.parse((await buffer(body)).toString('utf8')));
    if (!parsed.success || parsed.data.sha256 !== file.sha256 || parsed.data.kind !== kind) return null;
    // Only final failures are ever written, so an error here is a hit too.
    return parsed.data.error || isCompleteDerivation(parsed.data, derivation) ? parsed.data : null;
  } catch {
    return null; // unreadable entry: derive again and overwrite it
  }
}

export async function writeDerivationCache(storage: BuilderStorage, metadata: TDerivedMetadata): Promise<void> {
  await storage.put(derivedKeys(metadata.sha256).meta, JSON.stringify(metadata), {
    contentType: 'application/json',
    cacheControl: IMMUTABLE_CACHE_CONTROL,
  });
}

/** The bytes of a stored object (or its first `limit` bytes), for inputs a tool needs whole. */
export async function readObject(storage: BuilderStorage, key: string, size: number, limit = size): Promise<Buffer> {
  if (size === 0 || limit === 0) return Buffer.alloc(0);
  const end = Math.min(size, limit) - 1;
  const { body } = await storage.get(key, end < size - 1 ? { start: 0, end } : undefined);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of body) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    chunks.push(bytes);
    total += bytes.length;
    if (total > end + 1) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, end + 1);
}
