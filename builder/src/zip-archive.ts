/**
 * Reads a ZIP archive straight from storage through byte ranges (never the whole archive in
 * memory): the central directory gives the tree, sizes and dates without inflating anything,
 * and single entries are extracted by streaming. Used by the builder (the archive viewer's
 * tree) and by the API (downloading entries), with the same safety rules:
 * - entries with absolute paths, `..`, backslashes, control characters (also as the raw CP437
 *   bytes older tools write, which would otherwise decode to look-alike glyphs), or symbolic
 *   links are left out (and cannot be extracted);
 * - names are cleaned like uploaded file names: direction overrides and isolates are dropped
 *   and each part is NFC-normalised, in the tree and therefore in download names;
 * - more than 10,000 entries, more than 10 GB declared uncompressed, entries claiming more
 *   than deflate can produce, or entries whose data overlap (the overlapped zip bomb) make the
 *   whole archive unpreviewable;
 * - extraction is checked against the declared size by yauzl, so an entry can never inflate
 *   beyond what the central directory says.
 */
import { buffer } from 'node:stream/consumers';
import { PassThrough, type Readable } from 'node:stream';
import yauzl from 'yauzl';
import {
  ARCHIVE_ENTRY_LIMITS,
  detectFileKind,
  isEntryExtractable,
  stripUnsafeNameChars,
  type TArchiveEntry,
  type TArchiveEntryLimits,
  type TArchiveSummary,
} from '@dropsite/shared';
import { PreviewUnavailableError } from './derive-cache.ts';
import type { BuilderStorage } from './types.ts';

export interface TArchiveLimits {
  /** Entries in the central directory. Default 10,000. */
  maxEntries: number;
  /** Sum of the declared uncompressed sizes. Default 10 GiB. */
  maxDeclaredBytes: number;
}

export const ARCHIVE_LIMITS: TArchiveLimits = { maxEntries: 10_000, maxDeclaredBytes: 10 * 1024 ** 3 };

/** Deflate cannot expand data by more than about 1032:1; a larger claim is a lie. */
const MAX_DEFLATE_RATIO = 1100;
const MAX_PATH_LENGTH = 4096;

export const ARCHIVE_TOO_LARGE = 'This archive cannot be previewed: it is larger than the preview limit.';
export const ARCHIVE_UNSAFE = 'This archive cannot be previewed: its contents look malformed or unsafe.';
export const ARCHIVE_UNREADABLE = 'This archive cannot be previewed: it is damaged or not a ZIP file.';

export interface TZipFileEntry {
  path: string;
  size: number;
  compressedSize: number;
  /** False for encrypted entries and compression methods other than stored and deflate. */
  extractable: boolean;
  modified: Date | null;
}

export interface TZipArchive {
  summary: TArchiveSummary;
  /** The safe file entries by their path in the tree. */
  files: ReadonlyMap<string, TZipFileEntry>;
  /** The entry's uncompressed bytes, streamed from storage and inflated on the way. */
  openEntry(path: string): Promise<Readable>;
  close(): void;
}

/** A storage read failed: the machine's problem, not the archive's. */
class StorageReadError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'StorageReadError';
  }
}

const BLOCK_BYTES = 256 * 1024;
const MAX_BLOCKS = 8;

/**
 * yauzl's view of a stored object. Header reads (46 bytes per central directory record) go
 * through a small block cache, so listing 10,000 entries costs a few range requests, not
 * 20,000; file data streams straight from storage.
 */
class StorageReader extends yauzl.RandomAccessReader {
  readonly #storage: BuilderStorage;
  readonly #key: string;
  readonly #size: number;
  readonly #blocks = new Map<number, Buffer>();

  constructor(storage: BuilderStorage, key: string, size: number) {
    super();
    this.#storage = storage;
    this.#key = key;
    this.#size = size;
  }

  override _readStreamForRange(start: number, end: number): Readable {
    const out = new PassThrough();
    this.#storage.get(this.#key, { start, end: end - 1 }).then(
      ({ body }) => {
        if (out.destroyed) {
          body.destroy(); // the reader gave up (a client went away) before storage answered
          return;
        }
        body.on('error', (error) => out.destroy(new StorageReadError(error)));
        out.on('close', () => body.destroy());
        body.pipe(out);
      },
      (error: unknown) => out.destroy(new StorageReadError(error)),
    );
    return out;
  }

  override read(buffer: Buffer, offset: number, length: number, position: number, callback: (err: Error | null) => void): void {
    const done = callback as (err: Error | null, bytesRead?: number) => void;
    this.#readRange(position, length).then(
      (bytes) => {
        bytes.copy(buffer, offset);
        done(null, bytes.length);
      },
      (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
    );
  }

  async #readRange(position: number, length: number): Promise<Buffer> {
    const end = Math.min(this.#size, position + length);
    if (length >= BLOCK_BYTES) return this.#fetch(position, end);
    const first = Math.floor(position / BLOCK_BYTES);
    const last = Math.floor((end - 1) / BLOCK_BYTES);
    const parts: Buffer[] = [];
    for (let index = first; index <= last; index++) parts.push(await this.#block(index));
    const joined = parts.length === 1 ? parts[0]! : Buffer.concat(parts);
    const from = position - first * BLOCK_BYTES;
    return joined.subarray(from, from + (end - position));
  }

  async #block(index: number): Promise<Buffer> {
    const cached = this.#blocks.get(index);
    if (cached) {
      this.#blocks.delete(index); // most recently used goes last
      this.#blocks.set(index, cached);
      return cached;
    }
    const start = index * BLOCK_BYTES;
    const block = await this.#fetch(start, Math.min(this.#size, start + BLOCK_BYTES));
    this.#blocks.set(index, block);
    if (this.#blocks.size > MAX_BLOCKS) this.#blocks.delete(this.#blocks.keys().next().value!);
    return block;
  }

  async #fetch(start: number, endExclusive: number): Promise<Buffer> {
    if (endExclusive <= start) return Buffer.alloc(0);
    try {
      const { body } = await this.#storage.get(this.#key, { start, end: endExclusive - 1 });
      return await buffer(body);
    } catch (error) {
      throw new StorageReadError(error);
    }
  }
}

/** The entry's path as the tree shows it, or null when the entry must be refused. */
export function safeEntryPath(name: string): string | null {
  if (name.length === 0 || name.length > MAX_PATH_LENGTH) return null;
  // Control characters (NUL included) and backslashes: never part of an honest path.
  if (/[\u0000-\u001f\u007f\\]/.test(name)) return null;
  if (name.startsWith('/') || /^[a-zA-Z]:/.test(name)) return null;
  const parts = name.split('/');
  if (parts.includes('..')) return null;
  const kept: string[] = [];
  for (const part of parts) {
    if (part === '' || part === '.') continue;
    // The upload rule: no direction overrides or isolates ('invoice\u202Efdp.exe'), NFC.
    const cleaned = stripUnsafeNameChars(part).trim();
    if (cleaned === '' || cleaned === '.' || cleaned === '..') return null;
    kept.push(cleaned);
  }
  return kept.length === 0 ? null : kept.join('/');
}

/** Raw name bytes below 0x20 or 0x7F: line breaks and other controls, whatever the encoding (CP437 shows them as ◙, ♪, ⌂…). */
function hasControlBytes(raw: Buffer): boolean {
  for (const byte of raw) if (byte < 0x20 || byte === 0x7f) return true;
  return false;
}

function isSymlink(entry: yauzl.Entry): boolean {
  const madeBy = entry.versionMadeBy >> 8;
  // Unix (3) and macOS (19) keep the file mode in the high 16 bits.
  if (madeBy !== 3 && madeBy !== 19) return false;
  return ((entry.externalFileAttributes >>> 16) & 0o170000) === 0o120000;
}

function isDirectoryEntry(entry: yauzl.Entry, rawName: string): boolean {
  if (rawName.endsWith('/')) return true;
  const madeBy = entry.versionMadeBy >> 8;
  return (madeBy === 3 || madeBy === 19) && ((entry.externalFileAttributes >>> 16) & 0o170000) === 0o040000;
}

function lastModified(entry: yauzl.Entry): Date | null {
  // Plain DOS times have no zone: read them as UTC so a build gives the same tree on any server.
  const date = entry.getLastModDate({ timezone: 'UTC' });
  return Number.isNaN(date.getTime()) ? null : date;
}

function openZipFile(reader: StorageReader, size: number): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    yauzl.fromRandomAccessReader(reader, size, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true, strictFileNames: true }, (error, zipfile) => {
      if (error) reject(error);
      else resolve(zipfile);
    });
  });
}

function readAllEntries(zipfile: yauzl.ZipFile, onEntry: (entry: yauzl.Entry) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    zipfile.on('entry', (entry: yauzl.Entry) => {
      try {
        onEntry(entry);
        zipfile.readEntry();
      } catch (error) {
        reject(error);
      }
    });
    zipfile.once('end', () => resolve());
    zipfile.once('error', reject);
    zipfile.readEntry();
  });
}

interface TRawEntry {
  entry: yauzl.Entry;
  path: string | null;
  directory: boolean;
}

/** Opens a stored ZIP archive and reads its central directory. Throws PreviewUnavailableError with the reason to show. */
export async function openZipArchive(storage: BuilderStorage, key: string, size: number, limits: TArchiveLimits = ARCHIVE_LIMITS): Promise<TZipArchive> {
  const reader = new StorageReader(storage, key, size);
  let zipfile: yauzl.ZipFile;
  try {
    zipfile = await openZipFile(reader, size);
  } catch (error) {
    throw toPreviewError(error);
  }
  try {
    if (zipfile.entryCount > limits.maxEntries) {
      throw new PreviewUnavailableError(`This archive cannot be previewed: it holds more than ${limits.maxEntries.toLocaleString('en-US')} entries.`, { final: true });
    }
    const centralDirectoryOffset = Number(zipfile.readEntryCursor);
    const raw: TRawEntry[] = [];
    let declared = 0;
    await readAllEntries(zipfile, (entry) => {
      declared += entry.uncompressedSize;
      if (declared > limits.maxDeclaredBytes) throw new PreviewUnavailableError(ARCHIVE_TOO_LARGE, { final: true });
      if (entry.compressionMethod === 8 && entry.uncompressedSize > entry.compressedSize * MAX_DEFLATE_RATIO + 65_536) {
        throw new PreviewUnavailableError(ARCHIVE_UNSAFE, { final: true });
      }
      const rawName = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, true);
      const path = isSymlink(entry) || hasControlBytes(entry.fileNameRaw) ? null : safeEntryPath(rawName);
      raw.push({ entry, path, directory: isDirectoryEntry(entry, rawName) });
    });
    if (raw.length !== zipfile.entryCount) throw new PreviewUnavailableError(ARCHIVE_UNSAFE, { final: true });
    assertNoOverlap(raw, centralDirectoryOffset);
    return buildArchive(zipfile, raw);
  } catch (error) {
    zipfile.close();
    throw toPreviewError(error);
  }
}

/**
 * Every entry's data must end before the next entry's header begins and before the central
 * directory: the overlapped zip bomb points many entries at the same compressed bytes.
 */
function assertNoOverlap(raw: TRawEntry[], centralDirectoryOffset: number): void {
  const spans = raw
    .map(({ entry }) => ({ start: entry.relativeOffsetOfLocalHeader, end: entry.relativeOffsetOfLocalHeader + 30 + entry.fileNameLength + entry.compressedSize }))
    .sort((a, b) => a.start - b.start);
  for (let i = 0; i < spans.length; i++) {
    const limit = i + 1 < spans.length ? spans[i + 1]!.start : centralDirectoryOffset;
    if (spans[i]!.end > limit) throw new PreviewUnavailableError(ARCHIVE_UNSAFE, { final: true });
  }
}

function toPreviewError(error: unknown): PreviewUnavailableError {
  if (error instanceof PreviewUnavailableError) return error;
  if (error instanceof StorageReadError) return new PreviewUnavailableError('This archive cannot be previewed right now.', { final: false, cause: error });
  return new PreviewUnavailableError(ARCHIVE_UNREADABLE, { final: true, cause: error });
}

interface TTreeNode {
  name: string;
  path: string;
  folder: boolean;
  size: number;
  compressedSize: number;
  /** Files only: false when the API can never extract it (encrypted, unknown compression). */
  extractable: boolean;
  modified: Date | null;
  children: Map<string, TTreeNode>;
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

function buildArchive(zipfile: yauzl.ZipFile, raw: TRawEntry[]): TZipArchive {
  const root: TTreeNode = { name: '', path: '', folder: true, size: 0, compressedSize: 0, extractable: true, modified: null, children: new Map() };
  const files = new Map<string, TZipFileEntry>();
  const entries = new Map<string, yauzl.Entry>();
  let skipped = 0;
  let totalFolders = 0;

  const folderAt = (parts: string[]): TTreeNode | null => {
    let node = root;
    for (let i = 0; i < parts.length; i++) {
      const name = parts[i]!;
      let child = node.children.get(name);
      if (!child) {
        child = { name, path: parts.slice(0, i + 1).join('/'), folder: true, size: 0, compressedSize: 0, extractable: true, modified: null, children: new Map() };
        node.children.set(name, child);
        totalFolders++;
      } else if (!child.folder) {
        return null; // a file already holds this name
      }
      node = child;
    }
    return node;
  };

  for (const { entry, path, directory } of raw) {
    if (path === null) {
      skipped++;
      continue;
    }
    const parts = path.split('/');
    if (directory) {
      const folder = folderAt(parts);
      if (!folder) skipped++;
      else folder.modified ??= lastModified(entry);
      continue;
    }
    const parent = folderAt(parts.slice(0, -1));
    const name = parts.at(-1)!;
    if (!parent || parent.children.has(name)) {
      skipped++; // repeated path, or a file where a folder is
      continue;
    }
    const modified = lastModified(entry);
    const extractable = !entry.isEncrypted() && (entry.compressionMethod === 0 || entry.compressionMethod === 8);
    parent.children.set(name, { name, path, folder: false, size: entry.uncompressedSize, compressedSize: entry.compressedSize, extractable, modified, children: new Map() });
    files.set(path, { path, size: entry.uncompressedSize, compressedSize: entry.compressedSize, extractable, modified });
    entries.set(path, entry);
  }

  const toEntries = (node: TTreeNode): TArchiveEntry[] =>
    [...node.children.values()]
      .sort((a, b) => (a.folder === b.folder ? collator.compare(a.name, b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) : a.folder ? -1 : 1))
      .map((child) => {
        const out: TArchiveEntry = { name: child.name, path: child.path, type: child.folder ? 'folder' : 'file', size: 0 };
        if (child.folder) {
          out.children = toEntries(child);
          out.size = out.children.reduce((sum, c) => sum + c.size, 0);
          out.compressedSize = out.children.reduce((sum, c) => sum + (c.compressedSize ?? 0), 0);
        } else {
          out.size = child.size;
          out.compressedSize = child.compressedSize;
          out.fileType = detectFileKind(child.name);
          if (!child.extractable) out.extractable = false;
        }
        if (child.modified) out.modified = child.modified.toISOString();
        return out;
      });

  const tree = toEntries(root);
  let size = 0;
  let compressedSize = 0;
  for (const file of files.values()) {
    size += file.size;
    compressedSize += file.compressedSize;
  }
  const summary: TArchiveSummary = {
    format: 'zip',
    totalFiles: files.size,
    totalFolders,
    size,
    compressedSize,
    ratio: size > 0 ? Math.min(1, Math.round((compressedSize / size) * 10_000) / 10_000) : 0,
    entries: tree,
    truncated: false,
    ...(skipped > 0 ? { skippedEntries: skipped } : {}),
  };

  return {
    summary,
    files,
    openEntry(path) {
      const entry = entries.get(path);
      if (!entry || !files.get(path)?.extractable) return Promise.reject(new Error(`No extractable entry ${JSON.stringify(path)}`));
      return new Promise((resolve, reject) => {
        zipfile.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream)));
      });
    },
    close() {
      zipfile.close();
    },
  };
}

/**
 * The tree a site shows, with `extractable: false` on every file the API will not extract on its
 * own, and the bytes one request may extract (`entryMaxBytes`) for the viewer's selection.
 *
 * One source of truth: the builder marks the tree with the shared rule (archive-rules.ts) and
 * the limits the API checks with (its ARCHIVE_ENTRY_* configuration, passed to the builder), so
 * the viewer never repeats the rule with thresholds it cannot know. It runs on every site build,
 * not in the cached derivation, so archives listed before and changed limits are marked too;
 * what only the archive can tell (encryption, compression method) is marked when it is listed.
 */
export function markEntryExtractability(summary: TArchiveSummary, limits: TArchiveEntryLimits = ARCHIVE_ENTRY_LIMITS): TArchiveSummary {
  const mark = (entries: TArchiveEntry[]): TArchiveEntry[] =>
    entries.map((entry) => {
      if (entry.type === 'folder') return { ...entry, children: mark(entry.children ?? []) };
      const extractable = entry.extractable !== false && isEntryExtractable({ size: entry.size, compressedSize: entry.compressedSize ?? entry.size }, limits);
      const { extractable: _previous, ...rest } = entry;
      return extractable ? rest : { ...rest, extractable: false };
    });
  return { ...summary, entries: mark(summary.entries), entryMaxBytes: limits.entryMaxBytes };
}
