/**
 * The text document viewer (spec 2.2): a card with the first 12 lines (each cut at 50
 * characters; a Markdown file's formatted, as it reads) and, for files the browser may read (txt, md, csv, json, log), a full preview in
 * a reading dialog with Preview and Raw tabs, font size (14 at first, 10 to 24 in steps of 2),
 * Copy, Share, Print, Download and the favourite from the engagement controls. The full text is
 * read with a Range request, at most TEXT_PREVIEW_MAX_BYTES; longer files say so.
 */
import { lazy, Suspense, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { TTextSummary } from '@dropsite/shared';
import { COPY_CONFIRMATION_MS, TEXT_PREVIEW_MAX_BYTES, TEXT_VIEWER, formatBytes } from '../../../lib/shared-client.ts';
import type { TServedFile, TViewerSite } from '../../../lib/viewer-types.ts';
import { copyText } from '@dropsite/shared/browser/clipboard';
import { pageUrl, shareLink } from '../shared/actions.ts';
import { DownloadButton, FileEngagement } from '../shared/controls.tsx';
import { Icon } from '../shared/icons.tsx';
import type { TMdNode } from './markdown.ts';
import { renderMarkdown } from './markdown-render.ts';
import { cardLines, clampFontSize, decodeText, parseCsv, splitLines } from './text-format.ts';
import '../shared/viewer.css';
import './text.css';

// markdown-it is fetched only when a Markdown preview opens: the page's first bundle stays small.
const MarkdownPreview = lazy(() => import('./MarkdownPreview.tsx'));

interface Props {
  site: TViewerSite;
  file: TServedFile;
  text: TTextSummary | null;
  /** The API serves this file inline as text/plain, so the full preview can read it. */
  canPreview: boolean;
  /** 'TXT', 'MD', 'CSV'… */
  label: string;
  /** A Markdown file's first lines, parsed when the site was built: the card shows them formatted. */
  markdown?: TMdNode[] | null;
}

type TFull = { status: 'loading' } | { status: 'error' } | { status: 'ready'; text: string; isTruncated: boolean };

export default function TextViewer({ site, file, text, canPreview, label, markdown = null }: Props) {
  const [lines, setLines] = useState<string[] | null>(text ? text.firstLines : null);
  const [isOpen, setOpen] = useState(false);
  const openButton = useRef<HTMLButtonElement>(null);

  // No derived first lines (an older build): read the beginning of the file for the card.
  useEffect(() => {
    if (lines || !canPreview) return;
    const abort = new AbortController();
    readText(file.url, 16 * 1024, text?.encoding, abort.signal)
      .then(({ text: head }) => setLines(splitLines(head).slice(0, TEXT_VIEWER.cardLines)))
      .catch(() => setLines([]));
    return () => abort.abort();
  }, [lines, canPreview, file.url, text?.encoding]);

  const shown = lines ? cardLines(lines) : [];
  const totalLines = text?.totalLines;

  return (
    <div className="text-viewer">
      <article className="tv-card vi-card" aria-label={`${file.name}: first lines`}>
        {markdown?.length ? (
          <div className="tv-card__lines tv-card__lines--formatted tv-prose">{renderMarkdown(markdown)}</div>
        ) : (
          <pre className="tv-card__lines">
            {lines === null ? (
              <span className="tv-card__placeholder">Loading…</span>
            ) : shown.length ? (
              shown.join('\n')
            ) : (
              <span className="tv-card__placeholder">This file is empty.</span>
            )}
          </pre>
        )}
        <footer className="tv-card__actions">
          {canPreview && (
            <button ref={openButton} type="button" className="vi-button vi-button--primary" onClick={() => setOpen(true)}>
              <Icon name="expand" />
              Open Preview
            </button>
          )}
          <DownloadButton file={file} />
          <FileEngagement site={site} file={file} variant="compact" />
          <p className="tv-card__meta tv-card__count">
            {totalLines !== undefined && totalLines > shown.length ? `First ${shown.length} of ${totalLines.toLocaleString('en-US')} lines` : ''}
          </p>
        </footer>
      </article>
      {isOpen && (
        <FullPreview
          site={site}
          file={file}
          label={label}
          encoding={text?.encoding}
          onClose={() => {
            setOpen(false);
            requestAnimationFrame(() => openButton.current?.focus());
          }}
        />
      )}
    </div>
  );
}

/** The file's first `maxBytes`, decoded with the encoding the builder detected (Windows-1252 and UTF-16 included). */
async function readText(url: string, maxBytes: number, encoding: string | undefined, signal: AbortSignal): Promise<{ text: string; isTruncated: boolean }> {
  const response = await fetch(url, { signal, headers: { Range: `bytes=0-${maxBytes - 1}` }, credentials: 'same-origin' });
  if (!response.ok) throw new Error(`${response.status}`);
  const total = Number(/\/(\d+)$/.exec(response.headers.get('content-range') ?? '')?.[1] ?? NaN);
  const bytes = new Uint8Array(await response.arrayBuffer());
  const isTruncated = response.status === 206 && Number.isFinite(total) && total > maxBytes;
  return { text: decodeText(bytes.subarray(0, maxBytes), encoding, isTruncated || bytes.length > maxBytes), isTruncated };
}

function FullPreview({ site, file, label, encoding, onClose }: { site: TViewerSite; file: TServedFile; label: string; encoding: string | undefined; onClose: () => void }) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [full, setFull] = useState<TFull>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [tab, setTab] = useState<'preview' | 'raw'>('preview');
  const [fontSize, setFontSize] = useState<number>(TEXT_VIEWER.defaultFontSize);
  const [flash, setFlash] = useState('');
  const flashTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const tabsId = useId();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      clearTimeout(flashTimer.current);
      document.documentElement.removeAttribute('data-printing-text');
      if (dialog?.open) dialog.close();
    };
  }, []);

  useEffect(() => {
    const abort = new AbortController();
    setFull({ status: 'loading' });
    readText(file.url, TEXT_PREVIEW_MAX_BYTES, encoding, abort.signal)
      .then((result) => setFull({ status: 'ready', ...result }))
      .catch(() => !abort.signal.aborted && setFull({ status: 'error' }));
    return () => abort.abort();
  }, [file.url, encoding, attempt]);

  const say = (text: string) => {
    clearTimeout(flashTimer.current);
    setFlash(text);
    flashTimer.current = setTimeout(() => setFlash(''), COPY_CONFIRMATION_MS);
  };
  const copy = async () => {
    if (full.status !== 'ready') return;
    say((await copyText(full.text)) ? 'Copied' : 'Copy failed');
  };
  const share = async () => {
    const outcome = await shareLink({ title: file.name, url: pageUrl() });
    if (outcome === 'copied') say('Link copied');
    else if (outcome === 'failed') say('Copy failed');
  };
  const print = () => {
    const root = document.documentElement;
    root.setAttribute('data-printing-text', '');
    const done = () => root.removeAttribute('data-printing-text');
    window.addEventListener('afterprint', done, { once: true });
    window.print();
  };

  const onTabKey = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const next = tab === 'preview' ? 'raw' : 'preview';
    setTab(next);
    document.getElementById(`${tabsId}-${next}`)?.focus();
  };

  const kind = label.toLowerCase();
  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a click on the backdrop closes the dialog; Escape does the same from the keyboard
    <dialog
      ref={dialogRef}
      className="tv-dialog site-dialog"
      aria-label={`Preview of ${file.name}`}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      onClick={(event) => event.target === event.currentTarget && onClose()}
    >
      <div className="tv-dialog__panel tv-print">
        <header className="tv-dialog__header">
          <div className="tv-dialog__title">
            <p className="tv-card__name">{file.name}</p>
            <p className="tv-card__meta">
              {label} · {formatBytes(file.size)}
            </p>
          </div>
          <button type="button" className="vi-button vi-button--ghost vi-button--icon tv-no-print" onClick={onClose} aria-label="Close preview" autoFocus>
            <Icon name="close" />
          </button>
        </header>
        <div className="tv-dialog__toolbar tv-no-print">
          <div className="vi-segmented" role="tablist" aria-label="View" onKeyDown={onTabKey}>
            {(['preview', 'raw'] as const).map((value) => (
              <button
                key={value}
                id={`${tabsId}-${value}`}
                type="button"
                role="tab"
                aria-selected={tab === value}
                aria-controls={`${tabsId}-panel`}
                tabIndex={tab === value ? 0 : -1}
                onClick={() => setTab(value)}
              >
                {value === 'preview' ? 'Preview' : 'Raw'}
              </button>
            ))}
          </div>
          <div className="tv-font vi-group" role="group" aria-label="Font size">
            <button
              type="button"
              className="vi-button vi-button--small vi-button--icon"
              onClick={() => setFontSize((s) => clampFontSize(s - TEXT_VIEWER.step))}
              disabled={fontSize <= TEXT_VIEWER.minFontSize}
              aria-label="Smaller text"
            >
              A−
            </button>
            <span className="tv-font__size" aria-live="polite">
              {fontSize}px
            </span>
            <button
              type="button"
              className="vi-button vi-button--small vi-button--icon"
              onClick={() => setFontSize((s) => clampFontSize(s + TEXT_VIEWER.step))}
              disabled={fontSize >= TEXT_VIEWER.maxFontSize}
              aria-label="Larger text"
            >
              A+
            </button>
          </div>
          <div className="tv-dialog__actions vi-cluster">
            <button type="button" className="vi-button vi-button--small" onClick={copy} disabled={full.status !== 'ready'}>
              <Icon name="copy" />
              Copy
            </button>
            <button type="button" className="vi-button vi-button--small" onClick={share}>
              <Icon name="share" />
              Share
            </button>
            <button type="button" className="vi-button vi-button--small" onClick={print} disabled={full.status !== 'ready'}>
              <Icon name="print" />
              Print
            </button>
            <DownloadButton file={file} />
            <FileEngagement site={site} file={file} variant="compact" />
          </div>
          <p className="tv-flash" role="status">
            {flash}
          </p>
        </div>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the panel scrolls on its own, so it takes focus for keyboard scrolling */}
        <div id={`${tabsId}-panel`} role="tabpanel" aria-labelledby={`${tabsId}-${tab}`} className="tv-dialog__body" style={{ fontSize: `${fontSize}px` }} tabIndex={0}>
          {full.status === 'loading' && (
            <div className="tv-status">
              <div className="vi-spinner ui-spinner" aria-hidden="true" />
              <p>Loading preview…</p>
            </div>
          )}
          {full.status === 'error' && (
            <div className="vi-error" role="alert">
              <p className="vi-error__title">The preview could not be loaded.</p>
              <button type="button" className="vi-button vi-button--primary" onClick={() => setAttempt((a) => a + 1)}>
                Try Again
              </button>
            </div>
          )}
          {full.status === 'ready' && (
            <>
              {tab === 'raw' ? <pre className="tv-raw">{full.text}</pre> : <FormattedText text={full.text} kind={kind} />}
              {full.isTruncated && <p className="tv-truncated">The preview shows the first {formatBytes(TEXT_PREVIEW_MAX_BYTES)}. Download the file for all of it.</p>}
            </>
          )}
        </div>
      </div>
    </dialog>
  );
}

function FormattedText({ text, kind }: { text: string; kind: string }) {
  if (kind === 'md' || kind === 'markdown') {
    return (
      <Suspense
        fallback={
          <div className="tv-status">
            <div className="vi-spinner ui-spinner" aria-hidden="true" />
            <p>Loading preview…</p>
          </div>
        }
      >
        <MarkdownPreview text={text} />
      </Suspense>
    );
  }
  if (kind === 'csv') {
    const rows = parseCsv(text);
    const [head, ...body] = rows;
    return (
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a wide table scrolls sideways on its own, so it takes focus for keyboard scrolling
      <div className="tv-table-wrap" role="region" aria-label="Table" tabIndex={0}>
        <table className="tv-table">
          {head && (
            <thead>
              <tr>
                {head.map((cell, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a parsed table's columns never move: the position is the identity
                  <th key={i} scope="col">
                    {cell}
                  </th>
                ))}
              </tr>
            </thead>
          )}
          <tbody>
            {body.map((row, r) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a parsed table's rows never move: the position is the identity
              <tr key={r}>
                {row.map((cell, c) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: a parsed table's cells never move: the position is the identity
                  <td key={c}>{cell}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    );
  }
  if (kind === 'json') {
    let pretty = text;
    try {
      pretty = JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      // Not valid JSON (or cut short): shown as it is.
    }
    return <pre className="tv-raw tv-raw--wrap">{pretty}</pre>;
  }
  return <div className="tv-prose tv-prose--plain">{text}</div>;
}
