import { formatBytes } from '@dropsite/shared';
import { CheckIcon } from '../components/icons.tsx';
import { formatSpeed, formatTimeLeft, type TTransferEstimate } from './upload-progress.ts';

export type TProgressStage = 'uploading' | 'finishing' | 'published';

interface TUploadProgressPanelProps {
  stage: TProgressStage;
  estimate: TTransferEstimate;
  fileCount: number;
  onCancel: () => void;
}

const HEADLINES: Record<TProgressStage, string> = {
  uploading: 'Uploading',
  finishing: 'Creating your site',
  published: 'Your site is ready',
};

export function UploadProgressPanel({ stage, estimate, fileCount, onCancel }: TUploadProgressPanelProps) {
  const percent = stage === 'uploading' ? estimate.percent : 100;
  const sent = `${formatBytes(stage === 'uploading' ? estimate.sentBytes : estimate.totalBytes)} of ${formatBytes(estimate.totalBytes)}`;
  const files = `${fileCount} ${fileCount === 1 ? 'file' : 'files'}`;
  const detail =
    stage === 'uploading' ? `${HEADLINES.uploading} ${files}` : stage === 'finishing' ? 'All files received. Building your page…' : 'Opening it now…';

  return (
    <div className="upload-progress" data-stage={stage}>
      <div className="upload-progress__top">
        <div>
          <p className="upload-progress__headline">
            {stage === 'published' && <CheckIcon size={18} />}
            {stage === 'uploading' ? 'Publishing your site' : HEADLINES[stage]}
          </p>
          <p className="upload-progress__detail">{detail}</p>
        </div>
        <p className="upload-progress__percent" aria-hidden="true">
          {percent}
          <span>%</span>
        </p>
      </div>

      <div
        className="upload-progress__track"
        role="progressbar"
        aria-label="Upload progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={stage === 'uploading' ? `${percent}%, ${sent}` : HEADLINES[stage]}
      >
        <div className="upload-progress__fill" style={{ transform: `scaleX(${percent / 100})` }} />
      </div>

      <dl className="upload-progress__stats">
        <div>
          <dt>Sent</dt>
          <dd>{sent}</dd>
        </div>
        <div>
          <dt>Speed</dt>
          <dd>{stage !== 'uploading' ? '—' : estimate.bytesPerSecond === null ? 'Measuring…' : formatSpeed(estimate.bytesPerSecond)}</dd>
        </div>
        <div>
          <dt>Time left</dt>
          <dd>
            {stage !== 'uploading'
              ? 'Done'
              : estimate.secondsLeft === null
                ? 'Estimating…'
                : formatTimeLeft(estimate.secondsLeft).replace(/ left$/, '')}
          </dd>
        </div>
      </dl>

      <div className="upload-progress__actions">
        {stage === 'uploading' && (
          <button type="button" className="button button--secondary upload-progress__cancel" onClick={onCancel}>
            Cancel upload
          </button>
        )}
      </div>
    </div>
  );
}
