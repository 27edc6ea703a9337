/**
 * The multipart publish calls (spec 7.3 'Regular' POST /api/upload and 'Direct' POST
 * /api/direct-upload): one request sent with XMLHttpRequest, because fetch cannot report
 * upload progress.
 */
import { DEFAULT_SITE_SETTINGS, ZUploadResponseSchema, type TContactField, type TSiteLook, type TSiteSettings, type TTemplateId } from '@dropsite/shared';
import { createXhrTransport, type TTransport } from './transport.ts';
import { FALLBACK_MESSAGES, PUBLISH_FAILED_MESSAGE, createAbortError, isAbortError } from './upload-errors.ts';
import { filledContactInfo } from './filled-contact-info.ts';

export { isAbortError };

export const UPLOAD_ENDPOINT = '/api/upload';
export const DIRECT_UPLOAD_ENDPOINT = '/api/direct-upload';
/** What the creator is told when publishing fails (spec 8, 'Any publish failure'). */
export const UPLOAD_FAILED_MESSAGE = PUBLISH_FAILED_MESSAGE;

/** The wizard's defaults (spec 9): analytics on, every other engagement feature off, no email or webhook. */
export const DEFAULT_UPLOAD_SETTINGS: TSiteSettings = { ...DEFAULT_SITE_SETTINGS };

export interface TUploadRequest {
  files: readonly File[];
  /** Each file's group (the folder it was dropped in), by index; none when absent. */
  groups?: ReadonlyArray<string | null>;
  title: string;
  description?: string;
  authorName?: string;
  template?: TTemplateId;
  settings?: TSiteSettings;
  /** The creator's look; the template's when absent. */
  look?: TSiteLook;
  /** Sent only when not blank. */
  password?: string;
  /** ISO date-time (UTC); sent only when set. */
  expiryDate?: string;
  /** The footer's contact details; sent (trimmed, as JSON) only when one is filled in. */
  contactInfo?: Partial<Record<TContactField, string>>;
}

export interface TUploadProgress {
  /** Bytes of the request body sent so far. */
  loaded: number;
  /** Size of the whole request body, multipart framing included. */
  total: number;
}

export type TUploadOutcome = { ok: true; url: string; slug: string } | { ok: false; error: string; status: number };

export interface TUploadOptions {
  onProgress?: (progress: TUploadProgress) => void;
  /** Called once the last byte has left the browser; the server still has to answer. */
  onUploadComplete?: () => void;
  signal?: AbortSignal;
  endpoint?: string;
  /** The message when the server says nothing usable: 'Upload failed' (regular) or 'Direct upload failed'. */
  fallbackMessage?: string;
  transport?: TTransport;
  /** Seam for tests (ignored when a transport is given). */
  createRequest?: () => XMLHttpRequest;
}

/**
 * Builds the multipart body. Text fields come before the files so the server knows the
 * site's title and settings before the first file byte arrives.
 */
export function buildUploadForm(request: TUploadRequest): FormData {
  const form = new FormData();
  form.append('title', request.title.trim());
  form.append('description', (request.description ?? '').trim());
  form.append('template', request.template ?? 'universal');
  form.append('authorName', (request.authorName ?? '').trim());
  form.append('settings', JSON.stringify(request.settings ?? DEFAULT_UPLOAD_SETTINGS));
  if (request.look) {
    form.append('style', request.look.style);
    form.append('colorMode', request.look.colorMode);
    form.append('heroLayout', request.look.heroLayout);
    form.append('visitorModeToggle', String(request.look.visitorModeToggle));
  }
  const contactInfo = filledContactInfo(request.contactInfo);
  if (contactInfo) form.append('contactInfo', JSON.stringify(contactInfo));
  const groups = request.groups ?? [];
  form.append(
    'filesMetadata',
    JSON.stringify(
      request.files.map((f, i) => {
        const group = groups[i] ?? null;
        return { name: f.name, type: f.type, size: f.size, ...(group !== null ? { group } : {}) };
      }),
    ),
  );
  if (request.password && request.password.trim() !== '') form.append('password', request.password);
  if (request.expiryDate) form.append('expiryDate', request.expiryDate);
  for (const file of request.files) form.append('files', file, file.name);
  return form;
}

/** Reads the server's reply; anything that is not a well-formed success becomes a message for the creator. */
export function parseUploadReply(status: number, body: string, fallback: string = FALLBACK_MESSAGES.regular): TUploadOutcome {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { ok: false, error: fallback, status };
  }
  const reply = ZUploadResponseSchema.safeParse(json);
  if (!reply.success) return { ok: false, error: fallback, status };
  if (!reply.data.success) return { ok: false, error: reply.data.error.trim() || fallback, status };
  if (status < 200 || status >= 300 || reply.data.slug === '') return { ok: false, error: fallback, status };
  return { ok: true, url: reply.data.url, slug: reply.data.slug };
}

/**
 * Sends the files. Resolves with the outcome (a failed upload is an outcome, not an exception);
 * rejects only with an AbortError when `signal` aborts.
 */
export async function uploadFiles(request: TUploadRequest, options: TUploadOptions = {}): Promise<TUploadOutcome> {
  const { onProgress, onUploadComplete, signal, endpoint = UPLOAD_ENDPOINT, fallbackMessage = FALLBACK_MESSAGES.regular } = options;
  if (signal?.aborted) throw createAbortError();
  const transport = options.transport ?? createXhrTransport(options.createRequest);
  const reply = await transport({
    method: 'POST',
    url: endpoint,
    headers: { Accept: 'application/json' },
    body: buildUploadForm(request),
    ...(onProgress ? { onUploadProgress: (loaded: number, total: number) => onProgress({ loaded, total }) } : {}),
    ...(onUploadComplete ? { onUploadComplete } : {}),
    ...(signal ? { signal } : {}),
  });
  if (reply.status === 0) return { ok: false, error: fallbackMessage, status: 0 };
  return parseUploadReply(reply.status, reply.text, fallbackMessage);
}
