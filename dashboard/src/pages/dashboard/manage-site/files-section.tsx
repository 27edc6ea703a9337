/** The site's files: add, replace (a new version keeps its favourites, comments and approvals) or remove, each at once. */
import { useEffect, useRef, useState } from 'react';
import { describeFileType, formatBytes, type TManagedFile, type TManagedProject } from '@dropsite/shared';
import { PlanLimitMessage } from '../../../billing/plan-limit-message.tsx';
import { addManagedFiles, removeManagedFile, replaceManagedFile } from '../manage-api.ts';
import { SettingsCard, errorMessage, type TSectionProps } from './settings-card.tsx';

export function FilesSection({ project, onApplied }: TSectionProps) {
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const addInput = useRef<HTMLInputElement>(null);

  const act = async (key: string, action: () => Promise<TManagedProject>) => {
    setBusy(key);
    setError(null);
    try {
      onApplied(await action());
      setConfirming(null);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(null);
    }
  };

  return (
    <SettingsCard title="Files" intro="Add files, replace one with a new version (its favourites, comments and approvals stay), or remove one. The link stays the same.">
      <ul className="manage-files" role="list">
        {project.files.map((file) => (
          <FileRow
            key={file.id}
            file={file}
            busy={busy}
            canRemove={project.files.length > 1}
            confirming={confirming === file.id}
            onAskRemove={() => setConfirming(file.id)}
            onCancelRemove={() => setConfirming(null)}
            onRemove={() => void act(`remove-${file.id}`, () => removeManagedFile(project.id, file.id))}
            onReplace={(picked) => void act(`replace-${file.id}`, () => replaceManagedFile(project.id, file.id, picked))}
          />
        ))}
      </ul>
      {error && (
        <p className="manage-card__error" role="alert">
          <PlanLimitMessage message={error} />
        </p>
      )}
      <div className="manage-card__actions">
        <input
          ref={addInput}
          type="file"
          multiple
          hidden
          data-testid="add-files-input"
          onChange={(e) => {
            const picked = [...(e.target.files ?? [])];
            e.target.value = '';
            if (picked.length > 0) void act('add', () => addManagedFiles(project.id, picked));
          }}
        />
        <button type="button" className="button button--secondary" disabled={busy !== null} onClick={() => addInput.current?.click()}>
          {busy === 'add' ? 'Uploading…' : 'Add files'}
        </button>
      </div>
    </SettingsCard>
  );
}

/** What stands in for a thumbnail not made yet: the file's extension ('JPG'), else 'FILE'. */
function fileBadge(name: string): string {
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? name.slice(dot + 1).toUpperCase() : '';
  return extension && extension.length <= 4 ? extension : 'FILE';
}

export function FileRow({
  file,
  busy,
  canRemove,
  confirming,
  onAskRemove,
  onCancelRemove,
  onRemove,
  onReplace,
}: {
  file: TManagedFile;
  busy: string | null;
  canRemove: boolean;
  confirming: boolean;
  onAskRemove: () => void;
  onCancelRemove: () => void;
  onRemove: () => void;
  onReplace: (file: File) => void;
}) {
  const replaceInput = useRef<HTMLInputElement>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);
  return (
    <li className="manage-file" data-file-id={file.id}>
      <div className="manage-file__thumb ui-tile" aria-hidden="true">
        {file.thumbnailUrl ? <img src={file.thumbnailUrl} alt="" loading="lazy" width={48} height={48} /> : <span>{fileBadge(file.name)}</span>}
      </div>
      <div className="manage-file__text">
        <span className="manage-file__name">{file.name}</span>
        <span className="manage-file__meta">
          {describeFileType(file.name, file.type)} · {formatBytes(file.size)}
          {file.version > 1 && <span className="manage-file__version">Version {file.version}</span>}
        </span>
      </div>
      {confirming ? (
        <div className="manage-file__confirm" role="group" aria-label={`Remove ${file.name}?`}>
          <span className="manage-file__question">Remove this file? Its favourites, comments and approvals go with it.</span>
          <button ref={confirmRef} type="button" className="button button--danger" disabled={busy !== null} onClick={onRemove}>
            {busy === `remove-${file.id}` ? 'Removing…' : 'Remove file'}
          </button>
          <button type="button" className="button button--secondary" onClick={onCancelRemove}>
            Cancel
          </button>
        </div>
      ) : (
        <div className="manage-file__actions">
          <input
            ref={replaceInput}
            type="file"
            hidden
            data-testid={`replace-input-${file.id}`}
            onChange={(e) => {
              const picked = e.target.files?.[0];
              e.target.value = '';
              if (picked) onReplace(picked);
            }}
          />
          <button type="button" className="button button--secondary" disabled={busy !== null} onClick={() => replaceInput.current?.click()} aria-label={`Replace ${file.name}`}>
            {busy === `replace-${file.id}` ? 'Uploading…' : 'Replace'}
          </button>
          {canRemove && (
            <button type="button" className="button button--secondary" disabled={busy !== null} onClick={onAskRemove} aria-label={`Remove ${file.name}`}>
              Remove
            </button>
          )}
        </div>
      )}
    </li>
  );
}
