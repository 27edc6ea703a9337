/**
 * Browser actions the viewers share: downloads (one file, a streamed ZIP with progress),
 * sharing and copying a link. Texts are the spec's (section 8) where it has them.
 */
import { copyText } from '@dropsite/shared/browser/clipboard';

export const FILE_UNAVAILABLE_MESSAGE = (name: string) => `File "${name}" is not available for download. Please contact the site owner.`;
export const NOTHING_TO_DOWNLOAD_MESSAGE = 'No files are currently available for download. Please contact the site owner.';

/** Starts a download of a url through a temporary link (the response's Content-Disposition names the file). */
export function startDownload(url: string, fileName = ''): void {
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
}

/** The one ZIP of every file of a site: the footer's link and every 'Download All' ask for it. */
export function siteDownloadUrl(slug: string): string {
  return `/api/sites/${encodeURIComponent(slug)}/download`;
}

/** Downloads one delivery file, or tells the visitor why it cannot (spec 8). */
export function downloadFile(file: { name: string; downloadUrl: string }): void {
  if (!file.downloadUrl) {
    window.alert(FILE_UNAVAILABLE_MESSAGE(file.name));
    return;
  }
  startDownload(file.downloadUrl, file.name);
}

export type TZipOutcome = 'saved' | 'empty' | 'failed' | 'aborted';

/**
 * Reads a streamed body to its end, telling `onReceived` the bytes so far and the size to expect:
 * Content-Length, or `expectedBytes` when the server cannot know it up front (0: unknown).
 */
export async function readChunks(
  body: ReadableStream<Uint8Array<ArrayBuffer>>,
  headers: Headers,
  expectedBytes: number,
  onReceived: (received: number, total: number) => void,
): Promise<Uint8Array<ArrayBuffer>[]> {
  const length = Number(headers.get('content-length'));
  const total = Number.isFinite(length) && length > 0 ? length : expectedBytes;
  const reader = body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    chunks.push(value);
    received += value.byteLength;
    onReceived(received, total);
  }
}

/**
 * Fetches a ZIP the server streams, reporting progress (0-100) from Content-Length or, when the
 * server cannot know it up front, from `expectedBytes` (the files' total size), then saves it.
 */
export async function downloadZip(
  url: string,
  options: { expectedBytes: number; fallbackName: string; onProgress: (percent: number) => void; signal?: AbortSignal },
): Promise<TZipOutcome> {
  let response: Response;
  try {
    response = await fetch(url, { signal: options.signal, credentials: 'same-origin' });
  } catch {
    return options.signal?.aborted ? 'aborted' : 'failed';
  }
  if (response.status === 404 || response.status === 204) return 'empty';
  if (!response.ok || !response.body) return 'failed';
  let chunks: Uint8Array<ArrayBuffer>[];
  try {
    chunks = await readChunks(response.body, response.headers, options.expectedBytes, (received, total) =>
      // A ZIP is a little larger than its files; never claim 100% before the last byte.
      options.onProgress(total > 0 ? Math.min(99, Math.floor((received / total) * 100)) : 0),
    );
  } catch {
    return options.signal?.aborted ? 'aborted' : 'failed';
  }
  options.onProgress(100);
  const blob = new Blob(chunks, { type: 'application/zip' });
  const objectUrl = URL.createObjectURL(blob);
  startDownload(objectUrl, fileNameFromDisposition(response.headers.get('content-disposition')) ?? options.fallbackName);
  // The click has handed the blob to the download manager; keep it a moment for slow browsers.
  setTimeout(() => URL.revokeObjectURL(objectUrl), 60_000);
  return 'saved';
}

/** The file name of a Content-Disposition header (RFC 5987 `filename*` first). */
export function fileNameFromDisposition(header: string | null): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended?.[1]) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(header);
  return plain?.[1]?.trim() || null;
}

/** The page's own address without its fragment: what Share hands out. */
export function pageUrl(): string {
  return location.href.split('#')[0] ?? location.href;
}

export type TShareOutcome = 'shared' | 'copied' | 'failed' | 'cancelled';

/** Shares through the system sheet where there is one (phones), else copies the link. */
export async function shareLink(data: { title: string; text?: string; url: string }): Promise<TShareOutcome> {
  if (typeof navigator.share === 'function' && matchMedia('(pointer: coarse)').matches) {
    try {
      await navigator.share(data);
      return 'shared';
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return 'cancelled';
    }
  }
  return (await copyText(data.url)) ? 'copied' : 'failed';
}
