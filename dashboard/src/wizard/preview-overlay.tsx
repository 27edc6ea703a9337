import { useEffect, useRef, useState } from 'react';
import { BROWSER_IMAGE_TYPES } from '@dropsite/shared';
import type { TChosenFile } from '../upload/chosen-files.ts';
import { AlertIcon, ArrowRightIcon, ArrowLeftIcon, EyeIcon } from '../ui/icons.tsx';
import { buildPreviewRequest, previewFrameUrl, PREVIEW_CONTENT_MESSAGE, PREVIEW_READY_MESSAGE, scriptHashesOf } from './preview-html.ts';
import type { TWizardForm } from './wizard-state.ts';

const MAX_MEASURED = 200;

function measureImage(url: string): Promise<{ width: number; height: number } | null> {
  return new Promise((resolve) => {
    const img = new Image();
    img.onload = () => resolve(img.naturalWidth > 0 ? { width: img.naturalWidth, height: img.naturalHeight } : null);
    img.onerror = () => resolve(null);
    img.src = url;
  });
}

type TPreviewState = { name: 'loading' } | { name: 'ready'; html: string; frameUrl: string } | { name: 'failed' };

interface TPreviewOverlayProps {
  form: TWizardForm;
  files: readonly TChosenFile[];
  onEdit: () => void;
  onPublish: () => void;
}

/**
 * Full-screen preview (spec 2.6): the page the published site will be, rendered by the same
 * template on the server, showing the creator's own files. The page runs in a sandboxed frame of
 * its own opaque origin (GET /api/preview/frame, under the site's CSP): it can reach neither the
 * dashboard nor its cookies. The frame asks for its content; it gets the HTML and the chosen
 * files (cloned by postMessage) and makes its own blob: URLs of them.
 */
export function PreviewOverlay({ form, files, onEdit, onPublish }: TPreviewOverlayProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [state, setState] = useState<TPreviewState>({ name: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const frame = useRef<HTMLIFrameElement>(null);

  useEffect(() => {
    const el = dialog.current;
    if (el && !el.open) el.showModal();
    document.documentElement.setAttribute('data-scroll-locked', '');
    return () => document.documentElement.removeAttribute('data-scroll-locked');
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the draft cannot change while the preview is open; only a retry renders it again
  useEffect(() => {
    const controller = new AbortController();
    const urls = new Map(files.map(({ id, file }) => [id, URL.createObjectURL(file)]));
    setState({ name: 'loading' });
    void (async () => {
      const sizes = new Map<string, { width: number; height: number }>();
      const measurable = files.filter(({ file }) => BROWSER_IMAGE_TYPES.has(file.type)).slice(0, MAX_MEASURED);
      await Promise.all(
        measurable.map(async ({ id }) => {
          const size = await measureImage(urls.get(id)!);
          if (size) sizes.set(id, size);
        }),
      );
      try {
        const response = await fetch('/api/preview', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'text/html' },
          body: JSON.stringify(buildPreviewRequest(form, files, sizes)),
          signal: controller.signal,
        });
        if (!response.ok) throw new Error(`Preview answered ${response.status}`);
        const html = await response.text();
        const frameUrl = previewFrameUrl(scriptHashesOf(response.headers.get('content-security-policy')));
        if (!controller.signal.aborted) setState({ name: 'ready', html, frameUrl });
      } catch {
        if (!controller.signal.aborted) setState({ name: 'failed' });
      }
    })();
    return () => {
      controller.abort();
      // Only used to measure images here: the frame makes its own URLs.
      for (const url of urls.values()) URL.revokeObjectURL(url);
    };
  }, [attempt]);

  const html = state.name === 'ready' ? state.html : null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the files cannot change while the preview is open; each rendered page is sent them once
  useEffect(() => {
    if (html === null) return;
    // Answered once per frame: if the page were ever navigated away, the next page gets nothing.
    let sent = false;
    const onMessage = (event: MessageEvent) => {
      const target = frame.current?.contentWindow;
      if (sent || !target || event.source !== target) return;
      const data: unknown = event.data;
      if (!data || typeof data !== 'object' || !('type' in data) || data.type !== PREVIEW_READY_MESSAGE) return;
      sent = true;
      // The frame's origin is opaque ('null'), so '*' is the only target origin that reaches it; the source check above names the window.
      target.postMessage({ type: PREVIEW_CONTENT_MESSAGE, html, files: files.map(({ id, file }) => ({ id, file })) }, '*');
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [html]);

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: a click on the backdrop closes the dialog; Escape does the same from the keyboard
    <dialog
      ref={dialog}
      className="preview-overlay"
      aria-label="Site preview"
      onCancel={(event) => {
        event.preventDefault();
        onEdit();
      }}
      onClick={(event) => {
        if (event.target === event.currentTarget) onEdit();
      }}
    >
      <div className="preview-overlay__bar">
        <p className="preview-overlay__banner">
          <EyeIcon size={18} />
          <span>Preview Mode - This is how visitors will see your site</span>
        </p>
        <div className="preview-overlay__actions">
          <button type="button" className="button button--secondary button--on-dark" onClick={onEdit}>
            <ArrowLeftIcon size={18} />
            Edit
          </button>
          <button type="button" className="button button--accent" onClick={onPublish} autoFocus>
            Publish Site
            <ArrowRightIcon size={18} />
          </button>
        </div>
      </div>
      {/* biome-ignore lint/a11y/noStaticElementInteractions lint/a11y/useKeyWithClickEvents: a click beside the page closes the preview, like the backdrop; Escape does it from the keyboard */}
      <div className="preview-overlay__stage" onClick={(event) => event.target === event.currentTarget && onEdit()}>
        <div className="preview-overlay__frame" data-state={state.name}>
          {state.name === 'ready' && (
            <iframe
              ref={frame}
              data-testid="preview-frame"
              title={`Preview of ${form.title}`}
              src={state.frameUrl}
              // An opaque origin: the page's scripts run, but can reach neither the dashboard nor its cookies, nor navigate it.
              sandbox="allow-scripts allow-downloads"
            />
          )}
          {state.name === 'loading' && (
            <div className="preview-overlay__status" role="status">
              <span className="spinner spinner--large" aria-hidden="true" />
              Rendering your preview…
            </div>
          )}
          {state.name === 'failed' && (
            <div className="preview-overlay__status" role="alert">
              <AlertIcon size={22} />
              <p>The preview could not be loaded. Your files are fine and you can still publish.</p>
              <button type="button" className="button button--secondary" onClick={() => setAttempt((a) => a + 1)}>
                Try Again
              </button>
            </div>
          )}
        </div>
      </div>
    </dialog>
  );
}
