/** Per-file status and bytes of a running publish, turned into snapshots for the progress view. */

export const FILE_UPLOAD_STATUSES = ['pending', 'uploading', 'uploaded', 'complete', 'error'] as const;
export type TFileUploadStatus = (typeof FILE_UPLOAD_STATUSES)[number];

export interface TFileProgress {
  status: TFileUploadStatus;
  sentBytes: number;
  size: number;
}

export type TPublishPhase = 'preparing' | 'uploading' | 'finishing' | 'optimizing' | 'done';

export interface TPublishSnapshot {
  phase: TPublishPhase;
  files: TFileProgress[];
  sentBytes: number;
  totalBytes: number;
  /** 30-100 while the server optimises a direct upload; null otherwise. */
  optimizationPercent: number | null;
}

export interface TProgressTracker {
  setPhase(phase: TPublishPhase): void;
  setStatus(fileIndex: number, status: TFileUploadStatus): void;
  setStatusAll(status: TFileUploadStatus): void;
  /** Bytes of a file already safe on the server (earlier chunks, a resumed session). */
  addConfirmed(fileIndex: number, bytes: number): void;
  /** In-flight bytes of one request; `key` tells requests apart, 0 clears it. */
  setInFlight(fileIndex: number, key: string, bytes: number): void;
  setOptimization(percent: number | null): void;
  snapshot(): TPublishSnapshot;
}

export function createProgressTracker(sizes: readonly number[], onChange: (snapshot: TPublishSnapshot) => void): TProgressTracker {
  const confirmed = sizes.map(() => 0);
  const inFlight = sizes.map(() => new Map<string, number>());
  const statuses: TFileUploadStatus[] = sizes.map(() => 'pending');
  let phase: TPublishPhase = 'preparing';
  let optimizationPercent: number | null = null;
  const totalBytes = sizes.reduce((a, b) => a + b, 0);

  const sentOf = (i: number) => {
    let sum = confirmed[i]!;
    for (const v of inFlight[i]!.values()) sum += v;
    return Math.min(sizes[i]!, sum);
  };

  const snapshot = (): TPublishSnapshot => {
    const files = sizes.map((size, i) => ({
      status: statuses[i]!,
      size,
      sentBytes: statuses[i] === 'uploaded' || statuses[i] === 'complete' ? size : sentOf(i),
    }));
    return { phase, files, sentBytes: files.reduce((a, f) => a + f.sentBytes, 0), totalBytes, optimizationPercent };
  };
  const emit = () => onChange(snapshot());

  return {
    setPhase(next) {
      phase = next;
      emit();
    },
    setStatus(i, status) {
      statuses[i] = status;
      emit();
    },
    setStatusAll(status) {
      statuses.fill(status);
      emit();
    },
    addConfirmed(i, bytes) {
      confirmed[i] = Math.min(sizes[i]!, confirmed[i]! + bytes);
      emit();
    },
    setInFlight(i, key, bytes) {
      if (bytes <= 0) inFlight[i]!.delete(key);
      else inFlight[i]!.set(key, bytes);
      emit();
    },
    setOptimization(percent) {
      optimizationPercent = percent;
      emit();
    },
    snapshot,
  };
}
