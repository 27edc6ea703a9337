import { UPLOAD_MODE_BADGES, type TUploadMode } from '@dropsite/shared';
import { SparkIcon } from './wizard-icons.tsx';

/** The upload mode the spec picks by size, named as the spec names it. */
export function ModeBadge({ mode }: { mode: TUploadMode }) {
  return (
    <span className="mode-badge" data-mode={mode} data-testid="upload-mode-badge">
      <SparkIcon size={14} />
      {UPLOAD_MODE_BADGES[mode]}
    </span>
  );
}
