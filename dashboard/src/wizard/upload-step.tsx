import { useCallback, useEffect, useId, useRef, useState, type ChangeEvent, type DragEvent } from 'react';
import { UPLOAD_LIMITS, chooseUploadMode, formatBytes, type TFileFingerprint } from '@dropsite/shared';
import { AlertIcon, ArrowRightIcon, FolderIcon, PlusIcon, UploadIcon } from '../ui/icons.tsx';
import { findDuplicates, isFileDrag, pickedFromInput, readDroppedFiles, totalBytes, type TChosenFile, type TPickedFile } from '../upload/chosen-files.ts';
import { FileList } from '../upload/file-list.tsx';
import { fingerprintFile, isSameFileList } from '../upload/resume-store.ts';
import { ExplainedModeBadge } from './mode-badge.tsx';
import { ResumeNotice } from './resume-notice.tsx';
import '../ui/rise-in.css';
import '../upload/upload.css';

interface TUploadStepProps {
  files: readonly TChosenFile[];
  /** An upload that stopped before it finished (after a reload), offered to continue. */
  interrupted?: { files: readonly TFileFingerprint[]; hadPassword: boolean; onStartOver: () => void } | null;
  overLimit: number;
  onAdd: (files: TPickedFile[]) => void;
  onRemove: (id: string) => void;
  /** Removes every later copy of a file added twice. */
  onRemoveDuplicates: () => void;
  onClear: () => void;
  onContinue: () => void;
  announce: (message: string) => void;
}

/** Step 1: drop or choose any files, as many as needed. */
export function UploadStep({ files, interrupted = null, overLimit, onAdd, onRemove, onRemoveDuplicates, onClear, onContinue, announce }: TUploadStepProps) {
  const [isDragActive, setDragActive] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const dropzone = useRef<HTMLButtonElement>(null);
  const removeButtons = useRef(new Map<string, HTMLButtonElement>());
  const pendingFocusId = useRef<string | null | undefined>(undefined);
  const dragDepth = useRef(0);
  const hintId = useId();
  const folderHintId = useId();
  // 'Choose Folder' picks a whole folder: each file then comes with its path inside it (webkitRelativePath).
  const setFolderInput = useCallback((element: HTMLInputElement | null) => {
    folderInput.current = element;
    if (element) element.webkitdirectory = true;
  }, []);
  const hasFiles = files.length > 0;
  const bytes = totalBytes(files);
  const duplicateCount = findDuplicates(files).size;

  const addChosen = useCallback(
    (chosen: TPickedFile[]) => {
      if (chosen.length === 0) return;
      onAdd(chosen);
      announce(`${chosen.length} ${chosen.length === 1 ? 'file' : 'files'} added`);
    },
    [onAdd, announce],
  );

  // The box is in the page's HTML before its script runs: files chosen in that moment wait in the
  // inputs, and are taken in once the page runs rather than lost.
  useEffect(() => {
    for (const input of [fileInput.current, folderInput.current]) {
      if (!input?.files || input.files.length === 0) continue;
      addChosen(pickedFromInput(Array.from(input.files)));
      input.value = '';
    }
  }, [addChosen]);

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

  // After a removal, keep keyboard focus in the list instead of dropping it on <body>.
  useEffect(() => {
    const target = pendingFocusId.current;
    if (target === undefined) return;
    pendingFocusId.current = undefined;
    (target ? removeButtons.current.get(target) : dropzone.current)?.focus();
  }, [files]);

  const registerRemoveButton = useCallback((id: string, element: HTMLButtonElement | null) => {
    if (element) removeButtons.current.set(id, element);
    else removeButtons.current.delete(id);
  }, []);

  const remove = (id: string) => {
    const index = files.findIndex((c) => c.id === id);
    const neighbour = files[index + 1] ?? files[index - 1];
    pendingFocusId.current = neighbour ? neighbour.id : null;
    const removed = files[index];
    onRemove(id);
    if (removed) announce(`${removed.file.name} removed`);
  };

  const onInputChange = (event: ChangeEvent<HTMLInputElement>) => {
    addChosen(pickedFromInput(Array.from(event.target.files ?? [])));
    event.target.value = ''; // lets the creator pick the same file again after removing it
  };

  const onDragEnter = (event: DragEvent) => {
    if (!isFileDrag(event.dataTransfer)) return;
    event.preventDefault();
    dragDepth.current += 1;
    setDragActive(true);
  };
  const onDragOver = (event: DragEvent) => {
    if (!isFileDrag(event.dataTransfer)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  };
  const onDragLeave = () => {
    dragDepth.current = Math.max(0, dragDepth.current - 1);
    if (dragDepth.current === 0) setDragActive(false);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    dragDepth.current = 0;
    setDragActive(false);
    void readDroppedFiles(event.dataTransfer).then(addChosen);
  };

  const alertMessage =
    overLimit > 0 ? `A site holds up to ${UPLOAD_LIMITS.maxFilesPerSite} files, so ${overLimit} ${overLimit === 1 ? 'file was' : 'files were'} not added.` : null;

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: the whole step is a drop target for dragged files; the keyboard path is the file button inside it
    <div className="wizard-step" data-drag-active={isDragActive ? '' : undefined} onDragEnter={onDragEnter} onDragOver={onDragOver} onDragLeave={onDragLeave} onDrop={onDrop}>
      {interrupted && (
        <ResumeNotice
          files={interrupted.files}
          isMatched={isSameFileList(
            files.map((f) => fingerprintFile(f.file)),
            interrupted.files,
          )}
          hadPassword={interrupted.hadPassword}
          onStartOver={interrupted.onStartOver}
        />
      )}
      <div className="upload-stage" data-has-files={hasFiles ? '' : undefined}>
        <div className="upload-stage__content">
          <input ref={fileInput} data-testid="file-input" type="file" multiple hidden tabIndex={-1} onChange={onInputChange} />
          <input ref={setFolderInput} data-testid="folder-input" type="file" multiple hidden tabIndex={-1} onChange={onInputChange} />
          <button
            ref={dropzone}
            type="button"
            data-testid="dropzone"
            className="dropzone"
            data-compact={hasFiles ? '' : undefined}
            data-drag-active={isDragActive ? '' : undefined}
            aria-describedby={hintId}
            onClick={() => fileInput.current?.click()}
          >
            <span className="dropzone__large">
              <span className="dropzone__icon ui-tile">
                <UploadIcon size={24} />
              </span>
              <span className="dropzone__title">{isDragActive ? 'Drop to add your files' : 'Drag and drop files here'}</span>
              {/* Its description (aria-describedby), not part of its name: the name is what the button shows in large type. */}
              <span className="dropzone__hint" id={hintId} aria-hidden="true">
                or choose them from your device. Photos, video, PDFs, decks, whole folders: any file type.
              </span>
              {!hasFiles && <span className="dropzone__pill">Choose Files</span>}
            </span>
            <span className="dropzone__compact">
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
                <p className="upload-alert ui-alert">
                  <AlertIcon size={18} />
                  <span>{alertMessage}</span>
                </p>
              )}
              {duplicateCount > 0 && (
                <p className="upload-alert ui-alert upload-alert--duplicates" data-testid="duplicates-alert">
                  <AlertIcon size={18} />
                  <span>{duplicateCount === 1 ? 'One file was added twice.' : `${duplicateCount} files were added twice.`}</span>
                  <button
                    type="button"
                    className="upload-alert__action"
                    onClick={() => {
                      pendingFocusId.current = null;
                      onRemoveDuplicates();
                      announce(duplicateCount === 1 ? 'Copy removed' : `${duplicateCount} copies removed`);
                    }}
                  >
                    {duplicateCount === 1 ? 'Remove the copy' : 'Remove the copies'}
                  </button>
                </p>
              )}
            </div>
            <div className="upload-stage__summary">
              <p>
                <strong>
                  {files.length} {files.length === 1 ? 'file' : 'files'}
                </strong>
                <span aria-hidden="true"> · </span>
                {formatBytes(bytes)}
              </p>
              <button
                type="button"
                className="text-button"
                onClick={() => {
                  pendingFocusId.current = null;
                  onClear();
                  announce('All files removed');
                }}
                disabled={!hasFiles}
              >
                Clear all
              </button>
            </div>
            <FileList files={files} isDisabled={false} onRemove={remove} registerRemoveButton={registerRemoveButton} />
          </div>
        </div>
      </div>

      <p className="upload-folder">
        <button type="button" className="button button--secondary upload-folder__button" aria-describedby={folderHintId} onClick={() => folderInput.current?.click()}>
          <FolderIcon size={18} />
          Choose Folder
        </button>
        <span className="upload-folder__hint" id={folderHintId}>
          Each folder's name groups its files on your site.
        </span>
      </p>

      <div className="wizard-actions">
        <div className="wizard-actions__info">{hasFiles && <ExplainedModeBadge mode={chooseUploadMode(files.map((f) => f.file))} />}</div>
        <button type="button" className="button button--primary" disabled={!hasFiles} onClick={onContinue}>
          Continue
          <ArrowRightIcon size={18} />
        </button>
      </div>
    </div>
  );
}
