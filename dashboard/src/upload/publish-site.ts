/**
 * Publishes a draft site with the protocol the spec picks by size (spec 4, 'Upload mode by
 * size'): one regular request, direct multipart then optimisation polling, or chunked /
 * direct-chunked with resumable sessions.
 */
import { chooseUploadMode, type TContactField, type TSiteLook, type TSiteSettings, type TTemplateId, type TUploadMetadataInput, type TUploadMode } from '@dropsite/shared';
import { createChunkedUpload } from './chunked-upload.ts';
import { STATUS_READERS, pollOptimization } from './optimization-poll.ts';
import { createXhrTransport, type TTransport } from './transport.ts';
import { FALLBACK_MESSAGES, UploadError, isRetryableStatus } from './upload-errors.ts';
import { filledContactInfo } from './filled-contact-info.ts';
import { DIRECT_UPLOAD_ENDPOINT, UPLOAD_ENDPOINT, uploadFiles } from './upload-files.ts';
import { createProgressTracker, type TPublishSnapshot } from './upload-progress-tracker.ts';

export interface TPublishDraft {
  title: string;
  description: string;
  authorName: string;
  template: TTemplateId;
  password: string;
  /** ISO date-time (UTC) or '' for none. */
  expiryDate: string;
  settings: TSiteSettings;
  /** The look the creator chose (style, colour mode, hero layout, visitors' light/dark toggle). */
  look?: TSiteLook;
  /** The footer's contact details, as typed (blank ones are not sent). */
  contactInfo?: Partial<Record<TContactField, string>>;
  /** Each file's group (the folder it was dropped in), by index; none when absent. */
  groups?: ReadonlyArray<string | null>;
}

export interface TPublishResult {
  mode: TUploadMode;
  url: string;
  slug: string;
}

export interface TPublishOptions {
  onProgress?: (snapshot: TPublishSnapshot) => void;
  onSlugKnown?: (slug: string) => void;
  signal?: AbortSignal;
  transport?: TTransport;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  waitUntilOnline?: (signal: AbortSignal) => Promise<void>;
  digestChunk?: (bytes: ArrayBuffer) => Promise<string>;
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null;
  now?: () => number;
  /** Overrides the size rule (tests). */
  mode?: TUploadMode;
}

/** The JSON form the chunked inits send: blank optional fields left out. */
export function toUploadMetadata(draft: TPublishDraft): TUploadMetadataInput {
  return {
    title: draft.title.trim(),
    description: draft.description.trim(),
    template: draft.template,
    authorName: draft.authorName.trim(),
    ...(draft.password.trim() !== '' ? { password: draft.password } : {}),
    ...(draft.expiryDate ? { expiryDate: draft.expiryDate } : {}),
    settings: draft.settings,
    ...(draft.look ? { ...draft.look } : {}),
    ...withContactInfo(draft),
  };
}

function withContactInfo(draft: Pick<TPublishDraft, 'contactInfo'>): { contactInfo?: Partial<Record<TContactField, string>> } {
  const contactInfo = filledContactInfo(draft.contactInfo);
  return contactInfo ? { contactInfo } : {};
}

/** Resolves once the browser reports a connection (at once when it has one). */
export function waitUntilBrowserOnline(signal: AbortSignal): Promise<void> {
  if (typeof navigator === 'undefined' || navigator.onLine !== false) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      window.removeEventListener('online', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    window.addEventListener('online', done);
    signal.addEventListener('abort', done);
  });
}

/** Throws an UploadError with the spec's message on failure; an AbortError when cancelled. */
export async function publishSite(files: readonly File[], draft: TPublishDraft, options: TPublishOptions = {}): Promise<TPublishResult> {
  const mode = options.mode ?? chooseUploadMode(files);
  const transport = options.transport ?? createXhrTransport();
  const signal = options.signal ?? new AbortController().signal;
  const tracker = createProgressTracker(
    files.map((f) => f.size),
    (snapshot) => options.onProgress?.(snapshot),
  );

  /** Keeps the overlay up while the server optimises the files and builds the site. */
  const waitForSite = async (slug: string, reader: (typeof STATUS_READERS)[keyof typeof STATUS_READERS]) => {
    tracker.setPhase('optimizing');
    await pollOptimization({ transport, slug, signal, reader, onProgress: (p) => tracker.setOptimization(p), ...(options.sleep ? { sleep: options.sleep } : {}) });
  };

  if (mode === 'chunked' || mode === 'direct-chunked') {
    const upload = createChunkedUpload(
      mode,
      files,
      toUploadMetadata(draft),
      {
        transport,
        tracker,
        signal,
        waitUntilOnline: options.waitUntilOnline ?? waitUntilBrowserOnline,
        ...(options.sleep ? { sleep: options.sleep } : {}),
        ...(options.digestChunk ? { digestChunk: options.digestChunk } : {}),
        ...(options.storage !== undefined ? { storage: options.storage } : {}),
        ...(options.now ? { now: options.now } : {}),
        ...(options.onSlugKnown ? { onSlugKnown: options.onSlugKnown } : {}),
      },
      draft.groups,
    );
    const result = await upload.run();
    tracker.setStatusAll('complete');
    await waitForSite(result.slug, STATUS_READERS.site);
    tracker.setPhase('done');
    return { mode, url: result.url, slug: result.slug };
  }

  // One multipart request: bytes are spread over the files in order, as the body carries them.
  const sizes = files.map((f) => f.size);
  const total = sizes.reduce((a, b) => a + b, 0);
  let lastStatusIndex = -1;
  tracker.setPhase('uploading');
  const outcome = await uploadFiles(
    {
      files,
      ...(draft.groups ? { groups: draft.groups } : {}),
      title: draft.title,
      description: draft.description,
      authorName: draft.authorName,
      template: draft.template,
      settings: draft.settings,
      ...(draft.look ? { look: draft.look } : {}),
      ...withContactInfo(draft),
      password: draft.password,
      ...(draft.expiryDate ? { expiryDate: draft.expiryDate } : {}),
    },
    {
      transport,
      signal,
      endpoint: mode === 'direct' ? DIRECT_UPLOAD_ENDPOINT : UPLOAD_ENDPOINT,
      fallbackMessage: mode === 'direct' ? FALLBACK_MESSAGES.direct : FALLBACK_MESSAGES.regular,
      onProgress: ({ loaded, total: bodyTotal }) => {
        let remaining = Math.round((bodyTotal > 0 ? Math.min(1, loaded / bodyTotal) : 0) * total);
        sizes.forEach((size, i) => {
          const sent = Math.min(size, remaining);
          remaining -= sent;
          tracker.setInFlight(i, 'body', sent);
          const status = sent >= size ? 'uploaded' : sent > 0 ? 'uploading' : 'pending';
          if (i > lastStatusIndex && status !== 'pending') {
            tracker.setStatus(i, status);
            if (status === 'uploaded') lastStatusIndex = i;
          }
        });
      },
      onUploadComplete: () => {
        tracker.setStatusAll('uploaded');
        tracker.setPhase('finishing');
      },
    },
  );
  if (!outcome.ok) {
    tracker.setStatusAll('error');
    throw new UploadError(outcome.error, { status: outcome.status, isRetryable: isRetryableStatus(outcome.status) });
  }
  tracker.setStatusAll('complete');
  options.onSlugKnown?.(outcome.slug);
  await waitForSite(outcome.slug, mode === 'direct' ? STATUS_READERS.direct : STATUS_READERS.site);
  tracker.setPhase('done');
  return { mode, url: outcome.url, slug: outcome.slug };
}
