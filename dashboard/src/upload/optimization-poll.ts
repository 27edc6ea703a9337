/**
 * After the bytes are in, the server still optimises the files and builds the site. After a
 * direct upload the wizard polls GET /api/direct-upload/status/{slug} (spec 7.3 'Direct'); after
 * the other protocols GET /api/sites/{slug}/status, so the 'Almost done...' overlay stays until
 * the build has finished (spec 2.6). Both: first after 1 s, then every 2 s, at most 30 times;
 * poll failures are ignored (spec 8, 'Silently ignored').
 */
import { OPTIMIZATION_POLL, ZDirectUploadStatusResponseSchema, ZSiteStatusResponseSchema } from '@dropsite/shared';
import { sleepFor } from './chunk-scheduler.ts';
import { parseJson, type TTransport } from './transport.ts';

/** Where the progress display starts, and where it waits until the server says done. */
export const OPTIMIZATION_DISPLAY = { start: 30, cap: 88 } as const;

/** The percentage to show: starts at 30, follows the server, held at 88 until it is done. */
export function toOptimizationDisplay(progress: number | null, isComplete: boolean): number {
  if (isComplete) return 100;
  const value = progress === null || !Number.isFinite(progress) ? 0 : progress;
  return Math.round(Math.min(OPTIMIZATION_DISPLAY.cap, Math.max(OPTIMIZATION_DISPLAY.start, value)));
}

/** Reads one status reply: progress 0-100 and whether the site is done; null when unreadable. */
type TStatusReader = { url: (slug: string) => string; read: (json: unknown) => { progress: number; isComplete: boolean; isFailed: boolean } | null };

export const STATUS_READERS = {
  direct: {
    url: (slug) => `/api/direct-upload/status/${encodeURIComponent(slug)}`,
    read: (json) => {
      const parsed = ZDirectUploadStatusResponseSchema.safeParse(json);
      return parsed.success ? { progress: parsed.data.project.optimizationProgress, isComplete: parsed.data.project.optimizationComplete, isFailed: false } : null;
    },
  },
  site: {
    url: (slug) => `/api/sites/${encodeURIComponent(slug)}/status`,
    read: (json) => {
      const parsed = ZSiteStatusResponseSchema.safeParse(json);
      return parsed.success ? { progress: parsed.data.progress, isComplete: parsed.data.status === 'live', isFailed: parsed.data.status === 'failed' } : null;
    },
  },
} satisfies Record<string, TStatusReader>;

export interface TPollOptions {
  transport: TTransport;
  slug: string;
  /** Which status call to poll; direct by default. */
  reader?: TStatusReader;
  onProgress: (displayPercent: number) => void;
  signal: AbortSignal;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** Resolves true once the server says the optimisation is complete, false after the last poll. */
export async function pollOptimization({ transport, slug, onProgress, signal, sleep = sleepFor, reader = STATUS_READERS.direct }: TPollOptions): Promise<boolean> {
  let shown: number = OPTIMIZATION_DISPLAY.start;
  onProgress(shown);
  for (let poll = 0; poll < OPTIMIZATION_POLL.maxPolls; poll++) {
    await sleep(poll === 0 ? OPTIMIZATION_POLL.firstMs : OPTIMIZATION_POLL.everyMs, signal);
    const reply = await transport({ method: 'GET', url: reader.url(slug), signal });
    const status = reply.status === 200 ? reader.read(parseJson(reply.text)) : null;
    if (!status) continue;
    // Never let the bar move backwards.
    shown = Math.max(shown, toOptimizationDisplay(status.progress, status.isComplete));
    onProgress(shown);
    // A failed build is the site's own page to explain; the upload itself worked.
    if (status.isComplete || status.isFailed) return status.isComplete;
  }
  return false;
}
