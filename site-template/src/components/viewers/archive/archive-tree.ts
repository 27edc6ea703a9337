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
  return [...entries]
    .sort((a, b) => compare(a, b, sort))
    .map((entry) => (entry.children ? { ...entry, children: sortTree(entry.children, sort) } : entry));
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
