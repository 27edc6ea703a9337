/** Speed and time-left estimates for the upload progress bar. */
import { formatBytes } from '@dropsite/shared';

export interface TTransferEstimate {
  /** 0 to 100, whole numbers. */
  percent: number;
  /** Bytes of the creator's files sent, so the numbers match the file list (multipart framing left out). */
  sentBytes: number;
  totalBytes: number;
  /** null until there is enough data for a steady figure. */
  bytesPerSecond: number | null;
  secondsLeft: number | null;
}

const WARM_UP_MS = 800;
const MIN_SAMPLE_MS = 250;
const SMOOTHING = 0.3;

/**
 * Tracks upload progress events. The rate is an exponential moving average over samples at
 * least 250 ms apart, so the figures settle instead of flickering with every event.
 */
export function createTransferMeter(filesBytes: number, now: () => number = () => performance.now()) {
  const startedAt = now();
  let lastAt = startedAt;
  let lastLoaded = 0;
  let rate: number | null = null;

  return function measure(loaded: number, total: number): TTransferEstimate {
    const at = now();
    const elapsed = at - lastAt;
    if (elapsed >= MIN_SAMPLE_MS && loaded >= lastLoaded) {
      const sample = ((loaded - lastLoaded) / elapsed) * 1000;
      rate = rate === null ? sample : rate + SMOOTHING * (sample - rate);
      lastAt = at;
      lastLoaded = loaded;
    }
    const fraction = total > 0 ? Math.min(1, loaded / total) : 0;
    const isWarm = at - startedAt >= WARM_UP_MS && rate !== null && rate > 0;
    const remaining = Math.max(0, total - loaded);
    return {
      percent: Math.floor(fraction * 100),
      sentBytes: Math.round(fraction * filesBytes),
      totalBytes: filesBytes,
      bytesPerSecond: isWarm ? rate : null,
      secondsLeft: isWarm && rate ? remaining / rate : null,
    };
  };
}

export function formatSpeed(bytesPerSecond: number): string {
  return `${formatBytes(bytesPerSecond)}/s`;
}

/** A rounded, human estimate: 'A few seconds left', 'About 40 s left', 'About 3 min left', 'About 1 h 20 min left'. */
export function formatTimeLeft(seconds: number): string {
  if (!Number.isFinite(seconds)) return '';
  if (seconds < 5) return 'A few seconds left';
  const roundedSeconds = Math.ceil(seconds / 5) * 5;
  if (roundedSeconds < 60) return `About ${roundedSeconds} s left`;
  const minutes = Math.max(1, Math.round(seconds / 60));
  if (minutes < 60) return `About ${minutes} min left`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `About ${hours} h left` : `About ${hours} h ${rest} min left`;
}
