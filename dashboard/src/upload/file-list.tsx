import { useEffect, useState } from 'react';
import { BROWSER_IMAGE_TYPES, describeFileType, detectFileKind, formatBytes } from '@dropsite/shared';
import { AlertIcon, CloseIcon, FileTypeIcon, FolderIcon } from '../ui/icons.tsx';
import { findDuplicates, type TChosenFile } from './chosen-files.ts';
import '../ui/round-icon-button.css';

const MAX_PREVIEW_BYTES = 40 * 1024 * 1024;

interface TFileListProps {
  files: readonly TChosenFile[];
  isDisabled: boolean;
  onRemove: (id: string) => void;
  registerRemoveButton: (id: string, element: HTMLButtonElement | null) => void;
}

/** The chosen files, each with its remove button; a file added twice is flagged with a one-click remove. */
export function FileList({ files, isDisabled, onRemove, registerRemoveButton }: TFileListProps) {
  const duplicates = findDuplicates(files);
  return (
    <ul role="list" className="file-list" aria-label="Chosen files">
      {files.map(({ id, file, group }) => {
        const { base, extension } = splitName(file.name);
        const isDuplicate = duplicates.has(id);
        return (
          <li key={id} className="file-row" data-duplicate={isDuplicate ? '' : undefined}>
            <FileThumb file={file} />
            <div className="file-row__text">
              <span className="file-row__name" title={file.name}>
                <span className="file-row__base">{base}</span>
                {extension && <span className="file-row__ext">{extension}</span>}
              </span>
              <span className="file-row__meta">
                {group !== null && (
                  <>
                    <span className="file-row__group" data-testid="file-group" title={`In the folder ${group}`}>
                      <FolderIcon size={12} />
                      <span className="visually-hidden">Folder </span>
                      {group}
                    </span>
                    {' · '}
                  </>
                )}
                {describeFileType(file.name, file.type)} · {formatBytes(file.size)}
              </span>
              {isDuplicate && (
                <span className="file-row__duplicate" data-testid="duplicate-flag">
                  <span className="file-row__duplicate-text">
                    <AlertIcon size={14} />
                    <span>Added twice: same name and size as a file above.</span>
                  </span>
                  <button type="button" className="file-row__duplicate-remove" disabled={isDisabled} onClick={() => onRemove(id)}>
                    Remove copy<span className="visually-hidden"> of {file.name}</span>
                  </button>
                </span>
              )}
            </div>
            <button
              ref={(el) => registerRemoveButton(id, el)}
              type="button"
              className="file-row__remove round-icon-button"
              aria-label={`Remove ${file.name}`}
              disabled={isDisabled}
              onClick={() => onRemove(id)}
            >
              <CloseIcon size={18} />
            </button>
          </li>
        );
      })}
    </ul>
  );
}

function FileThumb({ file }: { file: File }) {
  const kind = detectFileKind(file.name, file.type);
  // Formats every browser decodes; RAW, HEIC and TIFF keep the icon.
  const canPreview = BROWSER_IMAGE_TYPES.has(file.type) && file.size <= MAX_PREVIEW_BYTES;
  const [previewUrl, setPreviewUrl] = useState<string | null>(null);
  const [hasFailed, setFailed] = useState(false);

  useEffect(() => {
    if (!canPreview) return;
    const url = URL.createObjectURL(file);
    setPreviewUrl(url);
    return () => URL.revokeObjectURL(url);
  }, [file, canPreview]);

  return (
    <span className="file-thumb ui-tile" data-kind={kind} aria-hidden="true">
      <FileTypeIcon name={file.name} type={file.type} size={18} />
      {previewUrl && !hasFailed && (
        <img src={previewUrl} alt="" decoding="async" loading="lazy" onError={() => setFailed(true)} onLoad={(e) => e.currentTarget.setAttribute('data-loaded', '')} />
      )}
    </span>
  );
}

/** Splits 'IMG_2045-final.jpg' so the base can be shortened with an ellipsis while the extension stays readable. */
function splitName(name: string): { base: string; extension: string } {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || name.length - dot > 12) return { base: name, extension: '' };
  return { base: name.slice(0, dot), extension: name.slice(dot) };
}
