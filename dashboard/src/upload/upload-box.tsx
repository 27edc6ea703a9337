import { useCallback, useEffect, useId, useReducer, useRef, useState, type ChangeEvent, type DragEvent, type FormEvent } from 'react';
import { UPLOAD_LIMITS, formatBytes } from '@dropsite/shared';
import { AlertIcon, ArrowRightIcon, PlusIcon, UploadIcon } from '../components/icons.tsx';
import { addFiles, isFileDrag, readDroppedFiles, totalBytes, type TChosenFile } from './chosen-files.ts';
import { FileList } from './file-list.tsx';
import { suggestSiteTitle, typeSiteTitle } from './site-title.ts';
import { UPLOAD_FAILED_MESSAGE, isAbortError, uploadFiles } from './upload-files.ts';
import { createTransferMeter, type TTransferEstimate } from './upload-progress.ts';
import { UploadProgressPanel, type TProgressStage } from './upload-progress-panel.tsx';
import './upload-box.css';

interface TDraft {
  files: TChosenFile[];
  title: string;
  isTitleTyped: boolean;
  /** Files of the last addition that did not fit in one site. */
  overLimit: number;
}

type TDraftAction = { type: 'add'; files: File[] } | { type: 'remove'; id: string } | { type: 'clear' } | { type: 'type-title'; value: string };

let lastFileId = 0;
const createFileId = () => `file-${++lastFileId}`;

function reduceDraft(draft: TDraft, action: TDraftAction): TDraft {
  switch (action.type) {
    case 'add': {
      const { files, overLimit } = addFiles(draft.files, action.files, createFileId);
      return { ...draft, files, overLimit, title: suggestSiteTitle(draft, files.map((c) => c.file)) };
    }
    case 'remove': {
      const files = draft.files.filter((c) => c.id !== action.id);
      return { ...draft, files, overLimit: 0, title: suggestSiteTitle(draft, files.map((c) => c.file)) };
    }
    case 'clear':
      return { ...draft, files: [], overLimit: 0, title: suggestSiteTitle(draft, []) };
    case 'type-title':
      return { ...draft, ...typeSiteTitle(action.value) };
  }
}

type TPhase = { name: 'editing' } | { name: TProgressStage; estimate: TTransferEstimate };

const INITIAL_DRAFT: TDraft = { files: [], title: '', isTitleTyped: false, overLimit: 0 };

/** The landing page's upload box: choose or drop files, name the site, publish with progress. */
export function UploadBox() {
  const [draft, dispatch] = useReducer(reduceDraft, INITIAL_DRAFT);
  const [phase, setPhase] = useState<TPhase>({ name: 'editing' });
  const [error, setError] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [isDragActive, setDragActive] = useState(false);

  const fileInput = useRef<HTMLInputElement>(null);
  const dropzone = useRef<HTMLButtonElement>(null);
  const publishButton = useRef<HTMLButtonElement>(null);
  const removeButtons = useRef(new Map<string, HTMLButtonElement>());
  const pendingFocusId = useRef<string | null | undefined>(undefined);
  const dragDepth = useRef(0);
  const abort = useRef<AbortController | null>(null);

  const ids = { hint: useId(), title: useId(), titleHint: useId() };
  const isBusy = phase.name !== 'editing';
  const hasFiles = draft.files.length > 0;
  const canPublish = hasFiles && draft.title.trim() !== '' && !isBusy;
  const bytes = totalBytes(draft.files);
  const alertMessage =
    error ??
    (draft.overLimit > 0
      ? `A site holds up to ${UPLOAD_LIMITS.maxFilesPerSite} files, so ${draft.overLimit} ${draft.overLimit === 1 ? 'file was' : 'files were'} not added.`
      : null);

  const addChosenFiles = useCallback((files: File[]) => {
    if (files.length === 0) return;
    setError(null);
    dispatch({ type: 'add', files });
    setAnnouncement(`${files.length} ${files.length === 1 ? 'file' : 'files'} added`);
  }, []);

  // A file dropped beside the box would make the browser open it and lose the creator's work.
  useEffect(() => {
    const guard = (event: globalThis.DragEvent) => {
      if (isFileDrag(event.dataTransfer)) event.preventDefault();
    };
    window.addEventListener('dragover', guard);
    window.addEventListener('drop', guard);
    return () => {
      window.removeEventListener('dragover', guard);
      window.removeEventListener('drop', guard);
    };
  }, []);

  useEffect(() => {
    if (phase.name !== 'uploading' && phase.name !== 'finishing') return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [phase.name]);

  // After a removal, keep keyboard focus in the list instead of dropping it on <body>.
  useEffect(() => {
    const target = pendingFocusId.current;
    if (target === undefined) return;
    pendingFocusId.current = undefined;
    (target ? removeButtons.current.get(target) : dropzone.current)?.focus();
  }, [draft.files]);

  const registerRemoveButton = useCallback((id: string, element: HTMLButtonElement | null) => {
    if (element) removeButtons.current.set(id, element);
    else removeButtons.current.delete(id);
  }, []);

  const removeFile = (id: string) => {
    const index = draft.files.findIndex((c) => c.id === id);
    const removed = draft.files[index];
    const neighbour = draft.files[index + 1] ?? draft.files[index - 1];
    pendingFocusId.current = neighbour ? neighbour.id : null;
    setError(null);
    dispatch({ type: 'remove', id });
    if (removed) setAnnouncement(`${removed.file.name} removed`);
  };

  const clearFiles = () => {
    pendingFocusId.current = null;
    setError(null);
    dispatch({ type: 'clear' });
    setAnnouncement('All files removed');
  };

  const onInputChange = (event: ChangeEvent<HTMLInputElement>) => {
    addChosenFiles(Array.from(event.target.files ?? []));
    // Lets the creator pick the same file again after removing it.
    event.target.value = '';
  };

  const onDragEnter = (event: DragEvent) => {
    if (!isFileDrag(event.dataTransfer) || isBusy) return;
    event.preventDefault();
    dragDepth.current += 1;
    setDragActive(true);
  };

  const onDragOver = (event: DragEvent) => {
    if (!isFileDrag(event.dataTransfer)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = isBusy ? 'none' : 'copy';
  };

  const onDragLeave = () => {
    dragDepth.current = Math.max(0, dragDepth.current - 1);
    if (dragDepth.current === 0) setDragActive(false);
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    dragDepth.current = 0;
    setDragActive(false);
    if (isBusy) return;
    void readDroppedFiles(event.dataTransfer).then(addChosenFiles);
  };

  const publish = async (event: FormEvent) => {
    event.preventDefault();
    if (!canPublish) return;
    setError(null);
    const files = draft.files.map((c) => c.file);
    const measure = createTransferMeter(bytes);
    let estimate = measure(0, 0);
    setPhase({ name: 'uploading', estimate });
    const controller = new AbortController();
    abort.current = controller;
    try {
      const outcome = await uploadFiles(
        { files, title: draft.title },
        {
          signal: controller.signal,
          onProgress: ({ loaded, total }) => {
            estimate = measure(loaded, total);
            setPhase((current) => (current.name === 'uploading' ? { name: 'uploading', estimate } : current));
          },
          onUploadComplete: () => setPhase({ name: 'finishing', estimate }),
        },
      );
      if (outcome.ok) {
        setPhase({ name: 'published', estimate });
        setAnnouncement('Your site is ready. Opening it now.');
        window.location.assign(`/${encodeURIComponent(outcome.slug)}`);
        return;
      }
      setPhase({ name: 'editing' });
      setError(outcome.error);
      requestAnimationFrame(() => publishButton.current?.focus());
    } catch (caught) {
      setPhase({ name: 'editing' });
      if (isAbortError(caught)) setAnnouncement('Upload cancelled. Your files are still here.');
      else setError(UPLOAD_FAILED_MESSAGE);
      requestAnimationFrame(() => publishButton.current?.focus());
    } finally {
      abort.current = null;
    }
  };

  const titleHint = !draft.title.trim()
    ? hasFiles
      ? 'Add a title to publish.'
      : 'Filled in from your first file. Change it any time.'
    : draft.isTitleTyped
      ? 'Shown as the heading of your site.'
      : 'Suggested from your first file name.';

  return (
    <section
      id="upload"
      tabIndex={-1}
      className="upload-box"
      aria-labelledby="upload-heading"
      data-drag-active={isDragActive ? '' : undefined}
      onDragEnter={onDragEnter}
      onDragOver={onDragOver}
      onDragLeave={onDragLeave}
      onDrop={onDrop}
    >
      <h2 id="upload-heading" className="visually-hidden">
        Create a site from your files
      </h2>
      <form className="upload-box__form" onSubmit={publish} noValidate>
        <div className="upload-stage" data-has-files={hasFiles ? '' : undefined}>
          <div className="upload-stage__content" inert={isBusy}>
            <input
              ref={fileInput}
              data-testid="file-input"
              type="file"
              multiple
              hidden
              tabIndex={-1}
              onChange={onInputChange}
            />
            <button
              ref={dropzone}
              type="button"
              data-testid="dropzone"
              className="dropzone"
              data-compact={hasFiles ? '' : undefined}
              data-drag-active={isDragActive ? '' : undefined}
              aria-label="Choose Files"
              aria-describedby={ids.hint}
              disabled={isBusy}
              onClick={() => fileInput.current?.click()}
            >
              <span className="dropzone__large">
                <span className="dropzone__icon">
                  <UploadIcon size={24} />
                </span>
                <span className="dropzone__title">{isDragActive ? 'Drop to add your files' : 'Drag and drop files here'}</span>
                <span className="dropzone__hint" id={ids.hint}>
                  or choose them from your device. Photos, video, PDFs, decks, whole folders: any file type.
                </span>
                {!hasFiles && <span className="dropzone__pill">Choose Files</span>}
              </span>
              <span className="dropzone__compact" aria-hidden="true">
                <span className="dropzone__compact-icon">
                  <PlusIcon size={18} />
                </span>
                <span className="dropzone__compact-text">
                  {isDragActive ? (
                    'Drop to add them'
                  ) : (
                    <>
                      Add more files<span className="dropzone__compact-extra"> or folders</span>
                    </>
                  )}
                </span>
                {hasFiles && <span className="dropzone__pill dropzone__pill--small">Choose Files</span>}
              </span>
            </button>

            <div className="upload-stage__files">
              <div role="alert" className="upload-alert-region">
                {alertMessage && (
                  <p className="upload-alert">
                    <AlertIcon size={18} />
                    <span>{alertMessage}</span>
                  </p>
                )}
              </div>
              <div className="upload-stage__summary">
                <p>
                  <strong>
                    {draft.files.length} {draft.files.length === 1 ? 'file' : 'files'}
                  </strong>
                  <span aria-hidden="true"> · </span>
                  {formatBytes(bytes)}
                </p>
                <button type="button" className="text-button" onClick={clearFiles} disabled={!hasFiles || isBusy}>
                  Clear all
                </button>
              </div>
              <FileList files={draft.files} isDisabled={isBusy} onRemove={removeFile} registerRemoveButton={registerRemoveButton} />
            </div>
          </div>

          {phase.name !== 'editing' && (
            <UploadProgressPanel
              stage={phase.name}
              estimate={phase.estimate}
              fileCount={draft.files.length}
              onCancel={() => abort.current?.abort()}
            />
          )}
        </div>

        <div className="upload-box__details">
          <div className="field">
            <label className="field__label" htmlFor={ids.title}>
              Site title
            </label>
            <input
              id={ids.title}
              className="field__input"
              type="text"
              value={draft.title}
              maxLength={UPLOAD_LIMITS.maxTitleLength}
              autoComplete="off"
              spellCheck
              placeholder="e.g. Harper & Cole wedding"
              aria-describedby={ids.titleHint}
              readOnly={isBusy}
              onChange={(event) => dispatch({ type: 'type-title', value: event.target.value })}
            />
            <p className="field__hint" id={ids.titleHint}>
              {titleHint}
            </p>
          </div>

          <button ref={publishButton} type="submit" className="button button--primary button--large upload-box__publish" disabled={!canPublish}>
            {isBusy ? <span className="spinner" aria-hidden="true" /> : null}
            <span>Publish site</span>
            {!isBusy && <ArrowRightIcon size={18} />}
          </button>
        </div>
      </form>
      <p className="visually-hidden" role="status">
        {announcement}
      </p>
    </section>
  );
}
