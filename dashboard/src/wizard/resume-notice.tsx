import type { TFileFingerprint } from '@dropsite/shared';
import { RefreshIcon } from '../ui/icons.tsx';

interface TResumeNoticeProps {
  /** The files of the interrupted upload, in the order they were sent. */
  files: readonly TFileFingerprint[];
  /** Whether the chosen files are those very files (same names, sizes and dates, same order). */
  isMatched: boolean;
  hadPassword: boolean;
  onStartOver: () => void;
}

const NAMES_SHOWN = 3;

function describeFiles(files: readonly TFileFingerprint[]): string {
  const names = files.slice(0, NAMES_SHOWN).map((f) => f.name);
  const rest = files.length - names.length;
  return rest > 0 ? `${names.join(', ')} and ${rest} more` : names.join(', ');
}

/** Shown on the upload step after a reload when an upload stopped before it finished and can go on. */
export function ResumeNotice({ files, isMatched, hadPassword, onStartOver }: TResumeNoticeProps) {
  const count = files.length === 1 ? 'the same file' : `the same ${files.length} files`;
  return (
    <section className="resume-notice" data-matched={isMatched ? '' : undefined} aria-labelledby="resume-notice-title" data-testid="resume-notice">
      <span className="resume-notice__icon" aria-hidden="true">
        <RefreshIcon size={18} />
      </span>
      <div className="resume-notice__text">
        <h3 id="resume-notice-title" className="resume-notice__title">
          {isMatched ? 'Ready to continue' : 'Continue your last upload'}
        </h3>
        <p>
          {isMatched
            ? 'These are the same files: publishing picks up where the last upload stopped.'
            : `It stopped before it finished. Choose ${count} again (${describeFiles(files)}) and publish: what already arrived is not sent twice.`}
          {hadPassword && ' Type the site’s password again on the details step.'}
        </p>
      </div>
      <button type="button" className="text-button resume-notice__action" onClick={onStartOver}>
        Start over
      </button>
    </section>
  );
}
