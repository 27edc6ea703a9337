import { useEffect, useId, useRef, useState } from 'react';
import { TIP_ROTATION_MS, formatBytes, type TUploadMode } from '@dropsite/shared';
import { CheckIcon } from '../ui/icons.tsx';
import type { TChosenFile } from '../upload/chosen-files.ts';
import { formatSpeed, formatTimeLeft, type TTransferEstimate } from '../upload/upload-progress.ts';
import type { TFileUploadStatus, TPublishSnapshot } from '../upload/upload-progress-tracker.ts';
import { ModeBadge } from './mode-badge.tsx';
import { ACCOUNT_TIP, WIZARD_TIPS } from './tips.ts';
import { SignUpLink } from '../auth/sign-up-link.tsx';
import '../ui/spread-row.css';

const STATUS_LABELS: Record<TFileUploadStatus, string> = {
  pending: 'Waiting',
  uploading: 'Uploading',
  uploaded: 'Uploaded',
  complete: 'Complete',
  error: 'Failed',
};

interface TAlmostDoneProps {
  mode: TUploadMode;
  files: readonly TChosenFile[];
  snapshot: TPublishSnapshot | null;
  estimate: TTransferEstimate | null;
  onCancel: () => void;
}

function headline(snapshot: TPublishSnapshot | null): string {
  switch (snapshot?.phase) {
    case 'finishing':
      return 'All files received. Building your site…';
    case 'optimizing':
      return 'Optimising your files for fast viewing…';
    case 'done':
      return 'Done';
    default:
      return 'Uploading your files…';
  }
}

/** Covers the success view until the upload and build have finished, with rotating tips. */
export function AlmostDoneOverlay({ mode, files, snapshot, estimate, onCancel }: TAlmostDoneProps) {
  const [tip, setTip] = useState(0);
  const headingId = useId();
  const panel = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const timer = setInterval(() => setTip((t) => (t + 1) % WIZARD_TIPS.length), TIP_ROTATION_MS);
    return () => clearInterval(timer);
  }, []);

  useEffect(() => panel.current?.focus(), []);

  const isOptimizing = snapshot?.phase === 'optimizing' && snapshot.optimizationPercent !== null;
  const uploadPercent = snapshot && snapshot.totalBytes > 0 ? Math.floor((snapshot.sentBytes / snapshot.totalBytes) * 100) : 0;
  const percent = isOptimizing ? snapshot.optimizationPercent! : snapshot?.phase === 'finishing' || snapshot?.phase === 'done' ? 100 : uploadPercent;
  const isUploading = !snapshot || snapshot.phase === 'uploading' || snapshot.phase === 'preparing';

  return (
    <div className="almost-done" role="dialog" aria-modal="true" aria-labelledby={headingId}>
      <div className="almost-done__panel" ref={panel} tabIndex={-1}>
        <div className="almost-done__top spread-row">
          <div>
            <h3 className="almost-done__title" id={headingId}>
              Almost done...
            </h3>
            <p className="almost-done__detail" role="status">
              {headline(snapshot)}
            </p>
          </div>
          <ModeBadge mode={mode} />
        </div>

        <div className="almost-done__meter">
          <div className="almost-done__numbers">
            <span className="almost-done__percent">
              {percent}
              <small>%</small>
            </span>
            <span>
              {formatBytes(snapshot?.sentBytes ?? 0)} of {formatBytes(snapshot?.totalBytes ?? 0)}
            </span>
          </div>
          <div
            className="progress-track"
            role="progressbar"
            aria-label={isOptimizing ? 'Optimisation progress' : 'Upload progress'}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
          >
            <div className="progress-track__fill" style={{ transform: `scaleX(${percent / 100})` }} />
          </div>
          <dl className="almost-done__stats">
            <div>
              <dt>Speed</dt>
              <dd>{!isUploading ? '—' : estimate?.bytesPerSecond ? formatSpeed(estimate.bytesPerSecond) : 'Measuring…'}</dd>
            </div>
            <div>
              <dt>Time left</dt>
              <dd>{!isUploading ? 'Finishing' : estimate?.secondsLeft != null ? formatTimeLeft(estimate.secondsLeft).replace(/ left$/, '') : 'Estimating…'}</dd>
            </div>
          </dl>
        </div>

        <ul role="list" className="upload-files" aria-label="Files">
          {files.map(({ id, file }, i) => {
            const progress = snapshot?.files[i];
            const status = progress?.status ?? 'pending';
            const filePercent = progress && progress.size > 0 ? Math.floor((progress.sentBytes / progress.size) * 100) : status === 'pending' ? 0 : 100;
            return (
              <li key={id} className="upload-file" data-status={status}>
                <div className="upload-file__row">
                  <span className="upload-file__name" title={file.name}>
                    {file.name}
                  </span>
                  <span className="upload-file__status">
                    {(status === 'uploaded' || status === 'complete') && <CheckIcon size={14} />}
                    {STATUS_LABELS[status]}
                  </span>
                </div>
                <div className="progress-track progress-track--thin" aria-hidden="true">
                  <div className="progress-track__fill" style={{ transform: `scaleX(${filePercent / 100})` }} />
                </div>
                <span className="upload-file__bytes">
                  {formatBytes(progress?.sentBytes ?? 0)} / {formatBytes(file.size)}
                </span>
              </li>
            );
          })}
        </ul>

        <div className="almost-done__tip">
          <span className="almost-done__tip-label">Tip</span>
          <p key={tip} className="almost-done__tip-text">
            {WIZARD_TIPS[tip]}
            {WIZARD_TIPS[tip] === ACCOUNT_TIP && (
              <>
                {' '}
                <SignUpLink className="almost-done__tip-link" isNewTab />
              </>
            )}
          </p>
        </div>

        {isUploading && (
          <button type="button" className="text-button almost-done__cancel" onClick={onCancel}>
            Cancel upload
          </button>
        )}
      </div>
    </div>
  );
}
