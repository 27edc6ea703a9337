/**
 * Built files on local disk (the dashboard's dist) as sendVariant reads them: `name`, and the
 * `name.br` and `name.gz` its build wrote next to it. A build does not change under a running
 * process, so each file's size and ETag (the hash of its bytes, read once) are kept in memory;
 * the bytes themselves are streamed from disk on every request.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { TContentCoding } from './content-coding.ts';
import type { TOpenedVariant, TVariantSource } from './send-variant.ts';

const SUFFIX: Record<TContentCoding, string> = { identity: '', br: '.br', gzip: '.gz' };
/** A file of the build by its path under the folder: plain names, never dot files, never a variant by its own name. */
const SAFE_PATH = /^(?:[\w-][\w.-]*\/)*[\w-][\w.-]*$/;

type TFileInfo = Omit<TOpenedVariant, 'body'>;

/** The hash of a file's bytes, as the builder tags what it stores (128 bits of SHA-256, base64url). */
function etagOf(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('base64url').slice(0, 22);
}

/** Answers the variant source of a file under `dir` by its relative path, or null for a path that names no servable file. */
export function createLocalVariants(dir: string): (relativePath: string) => TVariantSource | null {
  const known = new Map<string, Promise<TFileInfo | null>>();
  const infoOf = (file: string): Promise<TFileInfo | null> => {
    let info = known.get(file);
    if (!info) {
      info = readFile(file).then(
        (bytes) => ({ size: bytes.length, etag: etagOf(bytes) }),
        () => {
          known.delete(file); // only files that exist are remembered, so asking for made-up names grows nothing
          return null;
        },
      );
      known.set(file, info);
    }
    return info;
  };
  return (relativePath) => {
    if (!SAFE_PATH.test(relativePath) || /\.(?:br|gz)$/.test(relativePath)) return null;
    const base = path.join(dir, relativePath);
    const fileOf = (coding: TContentCoding) => `${base}${SUFFIX[coding]}`;
    return {
      codings: ['br', 'gzip'],
      stat: (coding) => infoOf(fileOf(coding)),
      async open(coding, range) {
        const info = await infoOf(fileOf(coding));
        if (!info) return null;
        return { ...info, body: createReadStream(fileOf(coding), range ? { start: range.start, end: range.end } : {}) };
      },
    };
  };
}
