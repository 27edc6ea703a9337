/**
 * The archive viewer (spec 2.2, decisions 6: sort works): the tree of folders and files from the
 * builder's listing, expand and collapse (one by one, 'Expand All', 'Collapse All'), search
 * ('Search files...', 'No files found matching "…"'), sort by name, size, type or date,
 * multi-select with 'Download Selected' (one entry as is, several as a ZIP) and 'Clear
 * Selection', and the info panel (files, size, format, compressed size, and the space compression
 * saved when it saved any). The tree follows the
 * ARIA tree pattern: one tab stop, arrows to move, →/← to open and close, Space to select,
 * Enter to open a folder or download a file.
 * Files the API does not extract on their own (marked by the builder: zip bombs, entries past the
 * per-request size, encrypted ones) show a note instead of a download link and are left out of
 * 'Download Selected'; the whole archive stays downloadable. Entry downloads ask the API with
 * HEAD first (it checks without inflating or spending anything), then hand the URL to the
 * browser's download manager: nothing is buffered in the page, and a refusal (busy, budget
 * spent) is a sentence here, not the API's JSON or a failed download.
 */
import { useEffect, useId, useMemo, useRef, useState, type CSSProperties, type KeyboardEvent } from 'react';
import type { TArchiveSummary } from '@dropsite/shared';
import { formatBytes } from '../../../lib/shared-client.ts';
import type { TViewerSite } from '../../../lib/viewer-types.ts';
import { startDownload } from '../shared/actions.ts';
import { DownloadButton, FileEngagement, InfoRow } from '../shared/controls.tsx';
import { Icon } from '../shared/icons.tsx';
import {
  ARCHIVE_SORTS,
  entryDownloadUrl,
  entryRefusalMessage,
  filePaths,
  filterTree,
  folderPaths,
  isOfferedAlone,
  notOfferedNote,
  savedSpaceLabel,
  planSelection,
  sortTree,
  visibleRows,
  type TArchiveSort,
  type TTreeRow,
} from './archive-tree.ts';
import '../shared/viewer.css';
import './archive.css';

export interface TArchiveFile {
  id: string;
  name: string;
  size: number;
  downloadUrl: string;
}

interface Props {
  site: TViewerSite;
  file: TArchiveFile;
  archive: TArchiveSummary;
}

const DATE = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
const formatModified = (iso?: string) => {
  const time = iso ? Date.parse(iso) : NaN;
  return Number.isNaN(time) ? '' : DATE.format(time);
};

export default function ArchiveViewer({ site, file, archive }: Props) {
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<TArchiveSort>('name');
  // Top-level folders start open: an archive usually wraps everything in one.
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set(archive.entries.filter((e) => e.type === 'folder').map((e) => e.path)));
  const [selected, setSelected] = useState<Set<string>>(() => new Set());
  const [focusPath, setFocusPath] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const treeRef = useRef<HTMLUListElement>(null);
  const searchId = useId();
  const sortId = useId();

  const isSearching = query.trim() !== '';
  const tree = useMemo(() => filterTree(sortTree(archive.entries, sort), query), [archive.entries, sort, query]);
  const rows = useMemo(() => visibleRows(tree, (path) => isSearching || expanded.has(path)), [tree, expanded, isSearching]);
  const allFolders = useMemo(() => folderPaths(archive.entries), [archive.entries]);
  const activePath = rows.some((r) => r.entry.path === focusPath) ? focusPath : (rows[0]?.entry.path ?? null);

  /** Downloads entries after the API said yes to a HEAD of the same URL. */
  const downloadEntries = async (paths: string[], name: string) => {
    if (paths.length === 0) return;
    const url = entryDownloadUrl(file.id, paths);
    setRefusal(null);
    let response: Response;
    try {
      response = await fetch(url, { method: 'HEAD', credentials: 'same-origin' });
    } catch {
      setRefusal(entryRefusalMessage(0, null, name || file.name));
      return;
    }
    if (!response.ok) {
      setRefusal(entryRefusalMessage(response.status, response.headers.get('retry-after'), name || file.name));
      return;
    }
    startDownload(url, name);
  };

  const toggleExpanded = (path: string, open?: boolean) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (open ?? !next.has(path)) next.add(path);
      else next.delete(path);
      return next;
    });

  const toggleSelected = (row: TTreeRow) =>
    setSelected((current) => {
      const paths = row.entry.type === 'file' ? [row.entry.path] : filePaths(row.entry.children ?? []);
      const next = new Set(current);
      const isAll = paths.length > 0 && paths.every((p) => next.has(p));
      for (const p of paths) {
        if (isAll) next.delete(p);
        else next.add(p);
      }
      return next;
    });

  const focusRow = (path: string | null | undefined) => {
    if (!path) return;
    setFocusPath(path);
    requestAnimationFrame(() => treeRef.current?.querySelector<HTMLElement>(`[data-path="${CSS.escape(path)}"]`)?.focus());
  };

  const onTreeKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const index = rows.findIndex((r) => r.entry.path === activePath);
    const row = rows[index];
    if (!row) return;
    const isFolder = row.entry.type === 'folder';
    const isOpen = isFolder && (isSearching || expanded.has(row.entry.path));
    let handled = true;
    switch (event.key) {
      case 'ArrowDown':
        focusRow(rows[index + 1]?.entry.path);
        break;
      case 'ArrowUp':
        focusRow(rows[index - 1]?.entry.path);
        break;
      case 'Home':
        focusRow(rows[0]?.entry.path);
        break;
      case 'End':
        focusRow(rows[rows.length - 1]?.entry.path);
        break;
      case 'ArrowRight':
        if (isFolder && !isOpen) toggleExpanded(row.entry.path, true);
        else if (isFolder) focusRow(rows[index + 1]?.entry.path);
        break;
      case 'ArrowLeft':
        if (isFolder && isOpen && !isSearching) toggleExpanded(row.entry.path, false);
        else focusRow(row.parentPath);
        break;
      case ' ':
        toggleSelected(row);
        break;
      case 'Enter':
        if (isFolder) toggleExpanded(row.entry.path);
        else if (isOfferedAlone(row.entry)) void downloadEntries([row.entry.path], row.entry.name);
        break;
      default:
        handled = false;
    }
    if (handled) event.preventDefault();
  };

  const plan = planSelection(archive.entries, selected, archive.entryMaxBytes);
  const saved = savedSpaceLabel(archive.size, archive.compressedSize || file.size);

  return (
    <div className="archive-viewer vi-layout">
      <div className="av-main vi-card">
        <div className="av-toolbar">
          <label className="av-search" htmlFor={searchId}>
            <Icon name="search" />
            <span className="visually-hidden">Search files</span>
            <input
              id={searchId}
              className="vi-input"
              type="search"
              placeholder="Search files..."
              value={query}
              autoComplete="off"
              onChange={(event) => setQuery(event.target.value)}
            />
          </label>
          <label className="av-sort" htmlFor={sortId}>
            <span>Sort by</span>
            <select id={sortId} className="vi-input" value={sort} onChange={(event) => setSort(event.target.value as TArchiveSort)}>
              {ARCHIVE_SORTS.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </label>
          <div className="av-toolbar__buttons">
            <button type="button" className="vi-button vi-button--small" onClick={() => setExpanded(new Set(allFolders))} disabled={allFolders.length === 0}>
              Expand All
            </button>
            <button type="button" className="vi-button vi-button--small" onClick={() => setExpanded(new Set())} disabled={allFolders.length === 0}>
              Collapse All
            </button>
          </div>
        </div>

        <div className="av-selection vi-bar" data-active={selected.size > 0}>
          <div className="av-selection__status" aria-live="polite">
            <p>{selected.size > 0 ? `${selected.size} selected` : `${archive.totalFiles} ${archive.totalFiles === 1 ? 'file' : 'files'}`}</p>
            {plan.message && <p className="av-selection__note">{plan.message}</p>}
          </div>
          <div className="av-selection__actions">
            <button type="button" className="vi-button vi-button--small" onClick={() => setSelected(new Set())} disabled={selected.size === 0}>
              Clear Selection
            </button>
            <button
              type="button"
              className="vi-button vi-button--small vi-button--primary"
              onClick={() => void downloadEntries(plan.paths, plan.paths.length === 1 ? (plan.paths[0]?.split('/').pop() ?? '') : '')}
              disabled={plan.paths.length === 0 || plan.tooLarge}
            >
              <Icon name="download" />
              Download Selected
            </button>
          </div>
        </div>

        {refusal && (
          <p className="av-alert" role="alert">
            <Icon name="alert" />
            <span>{refusal}</span>
          </p>
        )}

        {rows.length === 0 ? (
          <p className="av-empty" role="status">
            {isSearching ? `No files found matching "${query.trim()}"` : 'This archive is empty.'}
          </p>
        ) : (
          // biome-ignore lint/a11y/noNoninteractiveElementToInteractiveRole: the WAI-ARIA tree pattern: a list of rows with roving focus, keyboard handled on the tree
          <ul ref={treeRef} className="av-tree" role="tree" aria-label={`Contents of ${file.name}`} aria-multiselectable="true" onKeyDown={onTreeKeyDown}>
            {rows.map((row) => (
              <TreeRow
                key={row.entry.path}
                row={row}
                isExpanded={isSearching || expanded.has(row.entry.path)}
                selection={selectionState(row, selected)}
                isActive={row.entry.path === activePath}
                query={query.trim()}
                onToggle={() => toggleExpanded(row.entry.path)}
                onSelect={() => toggleSelected(row)}
                onFocus={() => setFocusPath(row.entry.path)}
                downloadUrl={isOfferedAlone(row.entry) ? entryDownloadUrl(file.id, [row.entry.path]) : ''}
                onDownload={() => void downloadEntries([row.entry.path], row.entry.name)}
              />
            ))}
          </ul>
        )}
        {archive.truncated && <p className="av-note">This archive holds more entries than are listed here. Download it to see everything.</p>}
      </div>

      <aside className="av-side">
        <section className="vi-card av-panel" aria-label="Archive information">
          <h3 className="vi-panel-title">Archive info</h3>
          <dl className="vi-info">
            <InfoRow label="Files">{archive.totalFiles.toLocaleString('en-US')}</InfoRow>
            {archive.totalFolders > 0 && <InfoRow label="Folders">{archive.totalFolders.toLocaleString('en-US')}</InfoRow>}
            <InfoRow label="Size">{formatBytes(archive.size)}</InfoRow>
            <InfoRow label="Format">{archive.format.toUpperCase()}</InfoRow>
            <InfoRow label="Compressed">{formatBytes(archive.compressedSize || file.size)}</InfoRow>
            {saved && <InfoRow label="Saved">{saved}</InfoRow>}
          </dl>
          <DownloadButton file={file} label="Download archive" variant="primary" />
        </section>
        <FileEngagement site={site} file={file} variant="full" />
      </aside>
    </div>
  );
}

function selectionState(row: TTreeRow, selected: Set<string>): 'all' | 'some' | 'none' {
  if (row.entry.type === 'file') return selected.has(row.entry.path) ? 'all' : 'none';
  const paths = filePaths(row.entry.children ?? []);
  const count = paths.filter((p) => selected.has(p)).length;
  return count === 0 ? 'none' : count === paths.length ? 'all' : 'some';
}

interface TreeRowProps {
  row: TTreeRow;
  isExpanded: boolean;
  selection: 'all' | 'some' | 'none';
  isActive: boolean;
  query: string;
  downloadUrl: string;
  onDownload: () => void;
  onToggle: () => void;
  onSelect: () => void;
  onFocus: () => void;
}

function TreeRow({ row, isExpanded, selection, isActive, query, downloadUrl, onDownload, onToggle, onSelect, onFocus }: TreeRowProps) {
  const { entry } = row;
  const isFolder = entry.type === 'folder';
  const noteId = useId();
  const note = isFolder || isOfferedAlone(entry) ? null : notOfferedNote(entry);
  const checkbox = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (checkbox.current) checkbox.current.indeterminate = selection === 'some';
  }, [selection]);
  const fileCount = isFolder ? filePaths(entry.children ?? []).length : 0;
  const meta = isFolder ? `${fileCount} ${fileCount === 1 ? 'file' : 'files'}` : formatModified(entry.modified);
  return (
    <li
      className="av-row"
      role="treeitem"
      data-path={entry.path}
      data-type={entry.type}
      aria-level={row.depth}
      aria-posinset={row.position}
      aria-setsize={row.siblings}
      aria-expanded={isFolder ? isExpanded : undefined}
      aria-selected={selection === 'all'}
      aria-describedby={note ? noteId : undefined}
      data-offered={note ? 'archive-only' : undefined}
      tabIndex={isActive ? 0 : -1}
      onFocus={(event) => event.target === event.currentTarget && onFocus()}
      style={{ '--depth': row.depth - 1 } as CSSProperties}
    >
      <span className="av-row__inner">
        <input ref={checkbox} type="checkbox" className="av-row__check" checked={selection === 'all'} onChange={onSelect} tabIndex={-1} aria-label={`Select ${entry.name}`} />
        {isFolder ? (
          <button type="button" className="av-row__toggle" onClick={onToggle} tabIndex={-1} aria-label={`${isExpanded ? 'Collapse' : 'Expand'} ${entry.name}`}>
            <Icon name={isExpanded ? 'chevronDown' : 'chevronRight'} />
          </button>
        ) : (
          <span className="av-row__toggle" aria-hidden="true" />
        )}
        <span className="av-row__icon" aria-hidden="true">
          <Icon name={isFolder ? (isExpanded ? 'folderOpen' : 'folder') : 'file'} />
        </span>
        {/* biome-ignore lint/a11y/noStaticElementInteractions lint/a11y/useKeyWithClickEvents: a mouse shortcut on the row's name; the tree's keyboard handling (Enter, Space, arrows) does the same */}
        <span className="av-row__name" title={entry.path} onClick={isFolder ? onToggle : onSelect}>
          <Highlight text={entry.name} query={query} />
        </span>
        <span className="av-row__meta">{meta}</span>
        <span className="av-row__size">{formatBytes(entry.size)}</span>
        {downloadUrl ? (
          <a
            className="av-row__download ui-tile"
            href={downloadUrl}
            download={entry.name}
            tabIndex={-1}
            aria-label={`Download ${entry.name}`}
            onClick={(event) => {
              // A modified click (new tab, save as) is the browser's; a plain one asks the API first.
              if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
              event.preventDefault();
              onDownload();
            }}
          >
            <Icon name="download" />
          </a>
        ) : (
          <span className="av-row__download ui-tile" aria-hidden="true" />
        )}
        {note && (
          <span className="av-row__note" id={noteId}>
            {note}
          </span>
        )}
      </span>
    </li>
  );
}

function Highlight({ text, query }: { text: string; query: string }) {
  const at = query ? text.toLowerCase().indexOf(query.toLowerCase()) : -1;
  if (at < 0) return <>{text}</>;
  return (
    <>
      {text.slice(0, at)}
      <mark>{text.slice(at, at + query.length)}</mark>
      {text.slice(at + query.length)}
    </>
  );
}
