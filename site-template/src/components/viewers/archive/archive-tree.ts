/** Pure rules of the archive viewer: sorting, search, visible rows, selection. */
import type { TArchiveEntry } from '@dropsite/shared';

export type TArchiveSort = 'name' | 'size' | 'type' | 'date';

export const ARCHIVE_SORTS: { value: TArchiveSort; label: string }[] = [
  { value: 'name', label: 'Name' },
  { value: 'size', label: 'Size' },
  { value: 'type', label: 'Type' },
  { value: 'date', label: 'Date' },
];

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** What 'type' sorts by: the kind the builder detected (document, image, pdf…), then the extension. */
export function entryType(entry: Pick<TArchiveEntry, 'name' | 'type' | 'fileType'>): string {
  if (entry.type === 'folder') return '';
  return `${(entry.fileType ?? '').toLowerCase()}\u0000${extensionOf(entry.name)}`;
}

function compare(a: TArchiveEntry, b: TArchiveEntry, sort: TArchiveSort): number {
  // Folders first, whatever the order: that is where people look for them.
  if (a.type !== b.type) return a.type === 'folder' ? -1 : 1;
  const byName = collator.compare(a.name, b.name);
  switch (sort) {
    case 'size':
      return b.size - a.size || byName;
    case 'type':
      return collator.compare(entryType(a), entryType(b)) || byName;
    case 'date': {
      const time = (e: TArchiveEntry) => (e.modified ? Date.parse(e.modified) || 0 : 0);
      return time(b) - time(a) || byName;
    }
    default:
      return byName;
  }
}

/** The tree sorted at every level (a new tree; the input is not changed). */
export function sortTree(entries: TArchiveEntry[], sort: TArchiveSort): TArchiveEntry[] {
  return [...entries].sort((a, b) => compare(a, b, sort)).map((entry) => (entry.children ? { ...entry, children: sortTree(entry.children, sort) } : entry));
}

/**
 * The tree cut to what matches a search: files whose name or path contains the text, and the
 * folders leading to them; a folder whose own name matches keeps all it holds.
 */
export function filterTree(entries: TArchiveEntry[], query: string): TArchiveEntry[] {
  const q = query.trim().toLowerCase();
  if (!q) return entries;
  const out: TArchiveEntry[] = [];
  for (const entry of entries) {
    const isMatch = entry.name.toLowerCase().includes(q) || (entry.type === 'file' && entry.path.toLowerCase().includes(q));
    if (entry.type === 'folder') {
      if (isMatch) out.push(entry);
      else {
        const children = filterTree(entry.children ?? [], q);
        if (children.length > 0) out.push({ ...entry, children });
      }
    } else if (isMatch) out.push(entry);
  }
  return out;
}

export interface TTreeRow {
  entry: TArchiveEntry;
  depth: number;
  /** Position among its siblings (1-based) and their count, for assistive technology. */
  position: number;
  siblings: number;
  parentPath: string | null;
}

/** The rows on screen: every entry whose ancestors are all expanded. */
export function visibleRows(entries: TArchiveEntry[], isExpanded: (path: string) => boolean, depth = 1, parentPath: string | null = null): TTreeRow[] {
  const rows: TTreeRow[] = [];
  entries.forEach((entry, i) => {
    rows.push({ entry, depth, position: i + 1, siblings: entries.length, parentPath });
    if (entry.type === 'folder' && entry.children?.length && isExpanded(entry.path)) {
      rows.push(...visibleRows(entry.children, isExpanded, depth + 1, entry.path));
    }
  });
  return rows;
}

/** Paths of every file at or below the entries. */
export function filePaths(entries: TArchiveEntry[]): string[] {
  const paths: string[] = [];
  for (const entry of entries) {
    if (entry.type === 'file') paths.push(entry.path);
    else paths.push(...filePaths(entry.children ?? []));
  }
  return paths;
}

/** Paths of every folder, for 'Expand All'. */
export function folderPaths(entries: TArchiveEntry[]): string[] {
  const paths: string[] = [];
  for (const entry of entries) {
    if (entry.type !== 'folder') continue;
    paths.push(entry.path, ...folderPaths(entry.children ?? []));
  }
  return paths;
}

/** The API call that downloads entries of an archive: one file as it is, several as a ZIP. */
export function entryDownloadUrl(fileId: string, paths: string[]): string {
  return `/api/files/${encodeURIComponent(fileId)}/entry?${paths.map((p) => `path=${encodeURIComponent(p)}`).join('&')}`;
}

/**
 * Whether the API extracts this file on its own. The builder decides it (the shared rule with the
 * API's own limits, and encryption) and marks the tree; the viewer only reads the mark, so it
 * never offers what the API refuses and never guesses at limits it cannot know.
 */
export function isOfferedAlone(entry: Pick<TArchiveEntry, 'type' | 'extractable'>): boolean {
  return entry.type === 'file' && entry.extractable !== false;
}

/** Entries above this size can be refused for their size; smaller ones only for how they are stored. */
const SMALL_ENTRY_BYTES = 1024 ** 2;

/** The note a file shows instead of its download link. */
export function notOfferedNote(entry: Pick<TArchiveEntry, 'size'>): string {
  return entry.size > SMALL_ENTRY_BYTES ? 'Too large to download on its own — download the whole archive' : 'Can only be downloaded with the whole archive';
}

export interface TSelectionPlan {
  /** The selected files the API extracts, in selection order. */
  paths: string[];
  /** Selected files only the whole archive holds. */
  leftOut: number;
  /** The files to extract exceed what one request may extract. */
  tooLarge: boolean;
  /** What the selection bar says beside the count, or ''. */
  message: string;
}

/** What 'Download Selected' downloads: the selected files the API extracts, within its per-request size. */
export function planSelection(entries: TArchiveEntry[], selected: ReadonlySet<string>, entryMaxBytes: number | undefined): TSelectionPlan {
  const files = new Map<string, TArchiveEntry>();
  const walk = (list: TArchiveEntry[]) => {
    for (const entry of list) {
      if (entry.type === 'file') files.set(entry.path, entry);
      else walk(entry.children ?? []);
    }
  };
  walk(entries);
  const paths: string[] = [];
  let leftOut = 0;
  let bytes = 0;
  for (const path of selected) {
    const entry = files.get(path);
    if (!entry) continue;
    if (!isOfferedAlone(entry)) {
      leftOut++;
      continue;
    }
    paths.push(path);
    bytes += entry.size;
  }
  const tooLarge = entryMaxBytes !== undefined && paths.length > 0 && bytes > entryMaxBytes;
  const message = tooLarge
    ? 'The selected files are too large to download together — download the whole archive'
    : leftOut > 0
      ? `${leftOut} ${leftOut === 1 ? 'file' : 'files'} can only be downloaded with the whole archive`
      : '';
  return { paths, leftOut, tooLarge, message };
}

/** A readable sentence for an entry download the API refused (a HEAD answers no body). */
export function entryRefusalMessage(status: number, retryAfter: string | null, name: string): string {
  const seconds = Number(retryAfter);
  switch (status) {
    case 413:
      return 'Too large to download on its own — download the whole archive.';
    case 429:
      return Number.isInteger(seconds) && seconds > 0 && seconds <= 3600
        ? `Too much was extracted from archives in the last minute. Please try again in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}.`
        : 'Too much was extracted from archives in the last minute. Please wait a moment and try again.';
    case 503:
      return 'Too many downloads are being prepared right now. Please try again in a few seconds.';
    case 404:
      return `File "${name}" is not available for download. Please contact the site owner.`;
    default:
      return `"${name}" could not be downloaded right now. Please try again, or download the whole archive.`;
  }
}

/**
 * How much smaller compression made the archive, for people: '42%'. Nothing when it saved less
 * than 1% (files stored as they are, pictures that do not compress): a '0%' or a ratio of 100% says
 * nothing a visitor needs.
 */
export function savedSpaceLabel(size: number, compressedSize: number): string {
  if (size <= 0 || compressedSize <= 0) return '';
  const saved = (1 - compressedSize / size) * 100;
  return saved >= 1 ? `${Math.min(99, Math.round(saved))}%` : '';
}
