/** Counting downloads when they complete: the HTTP side of analytics' download count. */
import type { Request, Response } from 'express';
import { principalOf } from '../access/principal.ts';
import { recordDownload, type TDownload } from '../analytics/analytics.service.ts';

/**
 * Whether a finished file response is a completed download: the whole file (200), or a range
 * reaching its last byte (206 with `Content-Range: bytes a-b/size`, b = size - 1), so a resumed
 * download counts once, when it completes. Aborted transfers never finish.
 */
export function isCompletedDownload(response: Pick<Response, 'statusCode' | 'writableFinished' | 'getHeader'>): boolean {
  if (!response.writableFinished) return false;
  if (response.statusCode === 200) return true;
  if (response.statusCode !== 206) return false;
  const match = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(String(response.getHeader('content-range') ?? ''));
  return match !== null && Number(match[2]) === Number(match[3]) - 1;
}

/** Counts the download of a file when this GET response completes (see isCompletedDownload). */
export function countDownloadWhenComplete(deps: Parameters<typeof recordDownload>[0], req: Request, res: Response, download: TDownload): void {
  if (req.method !== 'GET') return;
  const visitorId = principalOf(res).visitorId;
  res.once('finish', () => {
    if (isCompletedDownload(res)) void recordDownload(deps, visitorId, download);
  });
}
