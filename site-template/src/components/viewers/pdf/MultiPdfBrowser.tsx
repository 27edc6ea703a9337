/**
 * Several PDFs (spec 2.2, multi-PDF browser): the count and total pages, grid or list of the
 * documents (first-page thumbnails), and a preview mode with '← Back to Grid', previous/next
 * document, download, and the PDF viewer (a new document starts at page 1, zoom 1, rotation 0).
 */
import { useRef, useState } from 'react';
import { formatBytes } from '../../../lib/shared-client.ts';
import type { TViewerSite } from '../../../lib/viewer-types.ts';
import { DownloadAllButton, DownloadButton } from '../shared/controls.tsx';
import { Icon } from '../shared/icons.tsx';
import { SafeImage } from '../shared/SafeImage.tsx';
import PdfViewer, { type TPdfFile } from './PdfViewer.tsx';
import { countFileView } from '../../engagement/first-call.ts';
import '../shared/viewer.css';
import './pdf.css';

export interface TPdfCard extends TPdfFile {
  thumbnailUrl: string | null;
  thumbnailWidth: number | null;
  thumbnailHeight: number | null;
}

interface Props {
  site: TViewerSite;
  files: TPdfCard[];
}

const pagesLabel = (pages: number | null) => (pages === null ? '' : pages === 1 ? '1 page' : `${pages} pages`);

export default function MultiPdfBrowser({ site, files }: Props) {
  const [mode, setMode] = useState<'grid' | 'list'>('grid');
  const [preview, setPreview] = useState<number | null>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const knownPages = files.every((f) => f.pages !== null);
  const totalPages = files.reduce((sum, f) => sum + (f.pages ?? 0), 0);
  const totalBytes = files.reduce((sum, f) => sum + f.size, 0);

  const open = (index: number) => {
    setPreview(index);
    // Opening a document's preview is a view of that file (the server counts it once per visitor per window).
    const opened = files[index];
    if (opened && site.settings.enableAnalytics) countFileView(site.projectId, opened.id);
    requestAnimationFrame(() => rootRef.current?.querySelector<HTMLElement>('[data-back]')?.focus());
  };
  const back = () => {
    const index = preview;
    setPreview(null);
    requestAnimationFrame(() => rootRef.current?.querySelector<HTMLElement>(`[data-pdf-index="${index}"]`)?.focus());
  };

  const current = preview === null ? null : files[preview];
  if (current && preview !== null) {
    return (
      // biome-ignore lint/a11y/noStaticElementInteractions: Escape anywhere in the preview goes back to the grid; the Back button is the control itself
      <div ref={rootRef} className="mpdf" data-mode="preview" onKeyDown={(event) => event.key === 'Escape' && !document.fullscreenElement && back()}>
        <div className="mpdf-preview__bar vi-bar">
          <button type="button" className="vi-button" data-back onClick={back}>
            ← Back to Grid
          </button>
          <p className="mpdf-preview__title" title={current.name}>
            {current.name}
          </p>
          <div className="mpdf-preview__nav">
            <button type="button" className="vi-button vi-button--icon" onClick={() => setPreview(preview - 1)} disabled={preview === 0} aria-label="Previous PDF">
              <Icon name="prev" />
            </button>
            <span className="mpdf-preview__position vi-count">
              {preview + 1} of {files.length}
            </span>
            <button type="button" className="vi-button vi-button--icon" onClick={() => setPreview(preview + 1)} disabled={preview === files.length - 1} aria-label="Next PDF">
              <Icon name="next" />
            </button>
            <DownloadButton file={current} variant="primary" />
          </div>
        </div>
        <PdfViewer site={site} file={current} />
      </div>
    );
  }

  return (
    <div ref={rootRef} className="mpdf" data-mode={mode}>
      <div className="mpdf-header vi-bar">
        <p className="mpdf-header__summary">
          <span className="vi-badge ui-badge">{files.length} PDFs</span>
          {knownPages && <span>{totalPages === 1 ? '1 page' : `${totalPages} pages`} in total</span>}
          <span aria-hidden="true">·</span>
          <span>{formatBytes(totalBytes)}</span>
        </p>
        <div className="mpdf-header__actions vi-cluster">
          <div className="vi-segmented" role="group" aria-label="View">
            <button type="button" aria-pressed={mode === 'grid'} onClick={() => setMode('grid')}>
              <Icon name="grid" />
              <span className="vi-button__label">Grid</span>
            </button>
            <button type="button" aria-pressed={mode === 'list'} onClick={() => setMode('list')}>
              <Icon name="list" />
              <span className="vi-button__label">List</span>
            </button>
          </div>
          <DownloadAllButton site={site} />
        </div>
      </div>
      {mode === 'grid' ? (
        <ul className="mpdf-grid" role="list">
          {files.map((file, index) => (
            <li key={file.id}>
              <button type="button" className="mpdf-card" data-pdf-index={index} onClick={() => open(index)} aria-label={`Preview ${file.name}`}>
                <span className="mpdf-card__cover">
                  {file.thumbnailUrl ? (
                    <SafeImage src={file.thumbnailUrl} alt="" width={file.thumbnailWidth ?? 300} height={file.thumbnailHeight ?? 400} loading="lazy" decoding="async" />
                  ) : (
                    <Icon name="pdf" />
                  )}
                  {file.pages !== null && <span className="mpdf-card__pages">{pagesLabel(file.pages)}</span>}
                </span>
                <span className="mpdf-card__body">
                  <span className="mpdf-card__name" title={file.name}>
                    {file.name}
                  </span>
                  <span className="mpdf-card__meta">{formatBytes(file.size)}</span>
                </span>
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <ul className="mpdf-list" role="list">
          {files.map((file, index) => (
            <li key={file.id} className="mpdf-row">
              <button type="button" className="mpdf-row__open" data-pdf-index={index} onClick={() => open(index)} aria-label={`Preview ${file.name}`}>
                <span className="mpdf-row__icon">
                  <Icon name="pdf" />
                </span>
                <span className="mpdf-card__body" style={{ padding: 0 }}>
                  <span className="mpdf-card__name">{file.name}</span>
                  <span className="mpdf-card__meta">{[pagesLabel(file.pages), formatBytes(file.size)].filter(Boolean).join(' · ')}</span>
                </span>
              </button>
              <DownloadButton file={file} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
