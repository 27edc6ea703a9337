import { UPLOAD_MODE_BADGES, UPLOAD_MODE_EXPLANATIONS, type TUploadMode } from '@dropsite/shared';
import { SparkIcon } from '../ui/icons.tsx';

/** The upload mode the spec picks by size, named as the spec names it. */
export function ModeBadge({ mode }: { mode: TUploadMode }) {
  return (
    <span className="mode-badge" data-mode={mode} data-testid="upload-mode-badge">
      <SparkIcon size={14} />
      {UPLOAD_MODE_BADGES[mode]}
    </span>
  );
}

/** The badge with one line, read right after it, saying what the mode means for the creator. */
export function ExplainedModeBadge({ mode }: { mode: TUploadMode }) {
  return (
    <span className="mode-info">
      <ModeBadge mode={mode} />
      <span className="mode-info__text" data-testid="upload-mode-explanation">
        {UPLOAD_MODE_EXPLANATIONS[mode]}
      </span>
    </span>
  );
}
