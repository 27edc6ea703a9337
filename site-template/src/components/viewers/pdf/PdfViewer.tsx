/**
 * The PDF viewer (spec 2.2, 4, 9): loading with the four stage texts, then one page on a canvas
 * with 'i / n' navigation, zoom (start 1, x1.2 per step, 0.5 to 3), rotation by 90°, download,
 * full screen; or the error card 'Unable to load PDF' with 'Try Again'. A new url starts over at
 * page 1, zoom 1, rotation 0 (the document part is keyed by url). Zoom 1 fits the page to the
 * viewer's width. Keys when the page has focus: ← → PageUp PageDown Home End, + - 0, R.
 *
 * With `file.firstPage` (the first page the builder drew), that picture is the page until the
 * visitor turns to the viewer: a pointer over it, focus in it, a button or a key. Only then are
 * PDF.js and the document loaded (the stages show over the picture), and the canvas takes the
 * picture's place at the same size. The picture is in the server-rendered HTML, so it shows
 * before any script and with scripts off. Without it, loading starts when the island hydrates.
 */
import { useCallback, useEffect, useRef, useState, type CSSProperties, type KeyboardEvent } from 'react';
import type { PDFDocumentProxy, RenderTask } from 'pdfjs-dist';
import { PDF_ROTATION_STEP_DEG, PDF_ZOOM } from '../../../lib/shared-client.ts';
import type { TViewerSite } from '../../../lib/viewer-types.ts';
import { DownloadButton, FileEngagement } from '../shared/controls.tsx';
import { Icon } from '../shared/icons.tsx';
import { assertPdfBytes, createAssetFactory, fetchPdfBytes, loadPdfLibrary, PDF_MESSAGES, PdfViewerError } from './pdf-library.ts';
import '../shared/viewer.css';
import './pdf.css';

/** A page drawn at build time, and its size in pixels. */
interface TPdfPageImage {
  url: string;
  width: number;
  height: number;
}

export interface TPdfFile {
  id: string;
  name: string;
  size: number;
  downloadUrl: string;
  /** Where the PDF rendering is: the file itself, or a presentation's converted PDF. */
  pdfUrl: string;
  pages: number | null;
  /** The first page as a picture, shown until PDF.js has drawn it (null: load PDF.js at once). */
  firstPage?: TPdfPageImage | null;
}

interface Props {
  site: TViewerSite;
  file: TPdfFile;
  /** Engagement controls under the page (off when a parent shows them). */
  showEngagement?: boolean;
}

export const PDF_STAGES = {
  library: 'Loading PDF.js library...',
  data: 'Loading PDF data...',
  parse: 'Parsing PDF document...',
  render: 'Rendering preview...',
} as const;

/** The widest a page is drawn at zoom 1, in CSS pixels: wider reads badly and costs memory. */
const MAX_FIT_WIDTH = 880;

export default function PdfViewer(props: Props) {
  return <PdfDocumentView key={props.file.pdfUrl} {...props} />;
}

/** `waiting`: the first page's picture is shown and nothing of PDF.js is loaded yet. */
type TState = { status: 'waiting' } | { status: 'loading'; stage: string; percent: number | null } | { status: 'ready' } | { status: 'error'; message: string };

function PdfDocumentView({ site, file, showEngagement = true }: Props) {
  const poster = file.firstPage ?? null;
  const [state, setState] = useState<TState>(poster ? { status: 'waiting' } : { status: 'loading', stage: PDF_STAGES.library, percent: null });
  // PDF.js is wanted at once without a picture, else from the visitor's first move towards the viewer.
  const [isWanted, setWanted] = useState(poster === null);
  const want = useCallback(() => setWanted(true), []);
  const [attempt, setAttempt] = useState(0);
  const [pageCount, setPageCount] = useState(file.pages ?? 0);
  const [page, setPage] = useState(1);
  const [zoom, setZoom] = useState<number>(PDF_ZOOM.start);
  const [rotation, setRotation] = useState(0);
  const [stageWidth, setStageWidth] = useState(0);
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const stageRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const renderTask = useRef<RenderTask | null>(null);

  // A pointer already over the viewer, or focus already in it, when the island hydrates counts too.
  useEffect(() => {
    const root = rootRef.current;
    if (root && (root.matches(':hover') || root.contains(document.activeElement))) want();
  }, [want]);

  // Load: library, data, parse. The first page is drawn by the render effect below.
  useEffect(() => {
    if (!isWanted) return;
    const abort = new AbortController();
    let loadingTask: { destroy(): Promise<void>; promise: Promise<PDFDocumentProxy> } | null = null;
    let loaded: PDFDocumentProxy | null = null;
    const stage = (text: string, percent: number | null = null) => !abort.signal.aborted && setState({ status: 'loading', stage: text, percent });
    (async () => {
      stage(PDF_STAGES.library);
      const pdfjs = await loadPdfLibrary();
      stage(PDF_STAGES.data, 0);
      const data = await fetchPdfBytes(file.pdfUrl, file.size, (percent) => stage(PDF_STAGES.data, percent), abort.signal);
      assertPdfBytes(data);
      stage(PDF_STAGES.parse);
      const AssetFactory = createAssetFactory(pdfjs.version);
      loadingTask = pdfjs.getDocument({
        data,
        BinaryDataFactory: AssetFactory,
        useWorkerFetch: false,
        // Required by PDF.js when a factory is used; the factory maps names to our asset route.
        cMapUrl: '/_astro/',
        standardFontDataUrl: '/_astro/',
        wasmUrl: '/_astro/',
      } as Parameters<typeof pdfjs.getDocument>[0]);
      try {
        loaded = await loadingTask.promise;
      } catch (error) {
        const name = error instanceof Error ? error.name : '';
        if (name === 'PasswordException') throw new PdfViewerError(PDF_MESSAGES.password, { cause: error });
        throw new PdfViewerError(PDF_MESSAGES.invalid, { cause: error });
      }
      if (abort.signal.aborted) return;
      setPageCount(loaded.numPages);
      stage(PDF_STAGES.render);
      setDoc(loaded);
    })().catch((error: unknown) => {
      if (abort.signal.aborted) return;
      setState({ status: 'error', message: error instanceof PdfViewerError ? error.message : PDF_MESSAGES.render });
    });
    return () => {
      abort.abort();
      renderTask.current?.cancel();
      void loadingTask?.destroy();
      setDoc(null);
    };
  }, [file.pdfUrl, file.size, attempt, isWanted]);

  // The stage's width decides the fit-to-width scale.
  useEffect(() => {
    const stageEl = stageRef.current;
    if (!stageEl || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      const width = Math.floor(entry?.contentRect.width ?? 0);
      setStageWidth((current) => (Math.abs(current - width) > 8 ? width : current));
    });
    observer.observe(stageEl);
    return () => observer.disconnect();
  }, []);

  // Render the current page whenever page, zoom, rotation or the available width change.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!doc || !canvas || stageWidth === 0) return;
    let isCancelled = false;
    (async () => {
      const pdfPage = await doc.getPage(page);
      if (isCancelled) return;
      const natural = pdfPage.getViewport({ scale: 1, rotation });
      // Portrait pages fit the width (read by scrolling); landscape pages (slides) fit whole.
      let fit = Math.min(stageWidth, MAX_FIT_WIDTH) / natural.width;
      if (natural.width > natural.height) fit = Math.min(fit, (document.fullscreenElement ? window.innerHeight - 120 : window.innerHeight * 0.72) / natural.height);
      const viewport = pdfPage.getViewport({ scale: fit * zoom, rotation });
      const ratio = Math.min(window.devicePixelRatio || 1, 2);
      renderTask.current?.cancel();
      const context = canvas.getContext('2d');
      if (!context) throw new Error('No 2D canvas');
      canvas.width = Math.floor(viewport.width * ratio);
      canvas.height = Math.floor(viewport.height * ratio);
      canvas.style.width = `${Math.floor(viewport.width)}px`;
      canvas.style.height = `${Math.floor(viewport.height)}px`;
      const task = pdfPage.render({ canvas, canvasContext: context, viewport, transform: ratio === 1 ? undefined : [ratio, 0, 0, ratio, 0, 0] });
      renderTask.current = task;
      await task.promise;
      if (!isCancelled) setState((s) => (s.status === 'ready' ? s : { status: 'ready' }));
    })().catch((error: unknown) => {
      if (isCancelled || (error instanceof Error && error.name === 'RenderingCancelledException')) return;
      setState({ status: 'error', message: PDF_MESSAGES.render });
    });
    return () => {
      isCancelled = true;
    };
  }, [doc, page, zoom, rotation, stageWidth]);

  // Every control asks for PDF.js too: a page, zoom or turn chosen while it loads applies once it has.
  const goTo = useCallback(
    (next: number) => {
      want();
      setPage((current) => (pageCount > 0 ? Math.min(pageCount, Math.max(1, next)) : current));
    },
    [pageCount, want],
  );
  const zoomBy = (direction: 1 | -1) => {
    want();
    setZoom((z) => {
      const next = direction > 0 ? z * PDF_ZOOM.step : z / PDF_ZOOM.step;
      return Math.min(PDF_ZOOM.max, Math.max(PDF_ZOOM.min, Math.round(next * 1000) / 1000));
    });
  };
  const resetZoom = () => {
    want();
    setZoom(PDF_ZOOM.start);
  };
  const rotate = () => {
    want();
    setRotation((r) => (r + PDF_ROTATION_STEP_DEG) % 360);
  };
  const retry = () => {
    setState({ status: 'loading', stage: PDF_STAGES.library, percent: null });
    setAttempt((a) => a + 1);
  };
  const toggleFullscreen = () => {
    want();
    if (document.fullscreenElement) void document.exitFullscreen();
    else void rootRef.current?.requestFullscreen?.();
  };

  const isReady = state.status === 'ready';
  const isLoading = state.status === 'loading';
  // The picture stands for page 1 until the canvas is drawn; the controls work on it meanwhile.
  const showPoster = poster !== null && (state.status === 'waiting' || isLoading);
  const canAct = isReady || showPoster;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (!canAct || event.altKey || event.ctrlKey || event.metaKey) return;
    const actions: Record<string, () => void> = {
      ArrowLeft: () => goTo(page - 1),
      PageUp: () => goTo(page - 1),
      ArrowRight: () => goTo(page + 1),
      PageDown: () => goTo(page + 1),
      Home: () => goTo(1),
      End: () => goTo(pageCount),
      '+': () => zoomBy(1),
      '=': () => zoomBy(1),
      '-': () => zoomBy(-1),
      '0': resetZoom,
      r: rotate,
      R: rotate,
    };
    const action = actions[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a pointer over the viewer or focus in it only starts loading PDF.js; the controls inside are the interactive elements
    <div ref={rootRef} className="pdf-viewer vi-card" data-state={state.status} onPointerEnter={want} onPointerMove={isWanted ? undefined : want} onFocus={want}>
      <div className="pdf-toolbar vi-bar" role="toolbar" aria-label="PDF controls">
        <div className="pdf-toolbar__group vi-group">
          <button type="button" className="vi-button vi-button--ghost vi-button--icon" onClick={() => goTo(page - 1)} disabled={!canAct || page <= 1} aria-label="Previous page">
            <Icon name="prev" />
          </button>
          <span className="pdf-toolbar__pages" aria-live="polite" aria-atomic="true">
            <span className="visually-hidden">Page </span>
            <span className="pdf-toolbar__count">
              {page} / {pageCount || '–'}
            </span>
          </span>
          <button
            type="button"
            className="vi-button vi-button--ghost vi-button--icon"
            onClick={() => goTo(page + 1)}
            disabled={!canAct || page >= pageCount}
            aria-label="Next page"
          >
            <Icon name="next" />
          </button>
        </div>
        <div className="pdf-toolbar__group vi-group">
          <button type="button" className="vi-button vi-button--ghost vi-button--icon" onClick={() => zoomBy(-1)} disabled={!canAct || zoom <= PDF_ZOOM.min} aria-label="Zoom out">
            <Icon name="zoomOut" />
          </button>
          <button type="button" className="pdf-toolbar__zoom" onClick={resetZoom} disabled={!canAct} aria-label={`Zoom ${Math.round(zoom * 100)}%, reset to fit`}>
            {Math.round(zoom * 100)}%
          </button>
          <button type="button" className="vi-button vi-button--ghost vi-button--icon" onClick={() => zoomBy(1)} disabled={!canAct || zoom >= PDF_ZOOM.max} aria-label="Zoom in">
            <Icon name="zoomIn" />
          </button>
          <button type="button" className="vi-button vi-button--ghost vi-button--icon" onClick={rotate} disabled={!canAct} aria-label="Rotate 90°">
            <Icon name="rotate" />
          </button>
        </div>
        <div className="pdf-toolbar__group vi-group pdf-toolbar__group--end">
          <button type="button" className="vi-button vi-button--ghost vi-button--icon vi-hide-narrow" onClick={toggleFullscreen} aria-label="Full screen">
            <Icon name="fullscreen" />
          </button>
          <DownloadButton file={file} />
        </div>
      </div>

      {/* biome-ignore lint/a11y/noStaticElementInteractions lint/a11y/useAriaPropsSupportedByRole: the page stage is a focusable document once a page shows (role and label then), taking the reading keys */}
      <div
        ref={stageRef}
        className="pdf-stage"
        tabIndex={canAct ? 0 : -1}
        onKeyDown={onKeyDown}
        aria-label={canAct ? `${file.name}, page ${page} of ${pageCount}` : undefined}
        role={canAct ? 'document' : undefined}
      >
        {/* biome-ignore lint/a11y/noAriaHiddenOnFocusable: the canvas is never focused; the stage around it carries the page for assistive technology */}
        <canvas ref={canvasRef} className="pdf-canvas" hidden={state.status !== 'ready'} aria-hidden="true" />
        {showPoster && poster && (
          <img
            className="pdf-poster"
            src={poster.url}
            width={poster.width}
            height={poster.height}
            alt=""
            loading="lazy"
            decoding="async"
            data-orientation={poster.width > poster.height ? 'landscape' : 'portrait'}
            style={{ '--page-width': poster.width, '--page-height': poster.height, '--page-fit-max': `${MAX_FIT_WIDTH}px` } as CSSProperties}
          />
        )}
        {isLoading && (
          <div className={poster ? 'pdf-loading ui-fill-center pdf-loading--over' : 'pdf-loading ui-fill-center'} role="status">
            <div className="vi-spinner ui-spinner" aria-hidden="true" />
            <p className="pdf-loading__stage">{state.stage}</p>
            {state.percent !== null && (
              <div className="vi-progress pdf-loading__bar" aria-hidden="true">
                <span style={{ transform: `scaleX(${state.percent / 100})` }} />
              </div>
            )}
          </div>
        )}
        {state.status === 'error' && (
          <div className="vi-error" role="alert">
            <span className="vi-error__icon">
              <Icon name="alert" />
            </span>
            <p className="vi-error__title">Unable to load PDF</p>
            <p className="vi-error__text">{state.message}</p>
            <div className="pdf-error__actions">
              <button type="button" className="vi-button vi-button--primary" onClick={retry}>
                Try Again
              </button>
              <DownloadButton file={file} />
            </div>
          </div>
        )}
      </div>
      {showEngagement && (
        <div className="pdf-footer">
          <FileEngagement site={site} file={file} variant="full" />
        </div>
      )}
    </div>
  );
}
