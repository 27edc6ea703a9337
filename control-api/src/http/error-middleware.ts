/** One error middleware: `{ success: false, error, code }` with the right status; causes logged, never sent. */
import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import multer from 'multer';
import { ZodError } from 'zod';
import type { TErrorResponse } from '@dropsite/shared';
import { AppError } from './app-error.ts';
import type { Logger } from '../logger.ts';
import { isDatabaseUnavailable } from '../db/connection-errors.ts';

const MULTER_ERRORS: Record<string, { code: AppError['code']; message: string }> = {
  LIMIT_FILE_SIZE: { code: 'payload_too_large', message: 'File is larger than your plan allows' },
  LIMIT_FILE_COUNT: { code: 'payload_too_large', message: 'Too many files in one upload' },
  LIMIT_FIELD_COUNT: { code: 'bad_request', message: 'Too many form fields' },
  LIMIT_FIELD_VALUE: { code: 'payload_too_large', message: 'A form field is too long' },
  LIMIT_FIELD_KEY: { code: 'bad_request', message: 'A form field name is too long' },
  LIMIT_PART_COUNT: { code: 'bad_request', message: 'Too many parts in the upload' },
  LIMIT_UNEXPECTED_FILE: { code: 'bad_request', message: 'Unexpected file field' },
  MISSING_FIELD_NAME: { code: 'bad_request', message: 'A form field has no name' },
};

/** How long a client waits before trying again when the database could not be reached (a restart takes a few seconds). */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Turns anything thrown into an AppError, keeping the original as its cause. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof ZodError) {
    const first = err.issues[0];
    const where = first && first.path.length > 0 ? `${first.path.join('.')}: ` : '';
    return new AppError('validation_failed', `${where}${first?.message ?? 'Invalid request'}`, { cause: err });
  }
  if (err instanceof multer.MulterError) {
    const known = MULTER_ERRORS[err.code] ?? { code: 'bad_request' as const, message: 'Malformed upload' };
    return new AppError(known.code, known.message, { cause: err });
  }
  if (err instanceof Error) {
    const e = err as Error & { type?: string; status?: number; code?: string };
    if (e.type === 'entity.too.large') return new AppError('payload_too_large', 'Request body is too large', { cause: err });
    if (e.type === 'entity.parse.failed') return new AppError('bad_request', 'Request body is not valid JSON', { cause: err });
    // A path parameter the router cannot percent-decode (e.g. an overlong UTF-8 '%c0%af'): the client's, not a 500.
    if (err instanceof URIError) return new AppError('bad_request', 'Malformed URL', { cause: err });
    // body-parser: an encoding or charset it does not know (415), a body that does not inflate or
    // ends early (400). These are the client's, never a server failure.
    if (e.type === 'encoding.unsupported') return new AppError('unsupported_media_type', 'Unsupported content encoding', { cause: err });
    if (e.type === 'charset.unsupported') return new AppError('unsupported_media_type', 'Unsupported charset', { cause: err });
    if (isBodyReadError(e)) return new AppError('bad_request', 'Request body could not be read', { cause: err });
    // busboy's complaints about a broken multipart body.
    if (/Unexpected end of form|Malformed part header|Multipart: Boundary not found|Unexpected end of multipart/i.test(e.message)) {
      return new AppError('bad_request', 'Malformed upload', { cause: err });
    }
    if (e.code === 'ENOSPC') return new AppError('insufficient_storage', 'Storage is full. Please try again later.', { cause: err });
    // The database restarting or unreachable is temporary: 503 with when to try again, never a 500.
    if (isDatabaseUnavailable(err)) {
      return new AppError('service_unavailable', 'The service is briefly unavailable. Please try again in a few seconds.', {
        cause: err,
        headers: { 'Retry-After': String(DATABASE_RETRY_AFTER_SECONDS) },
      });
    }
  }
  return new AppError('internal', 'Something went wrong. Please try again.', { cause: err });
}

/** A 400 from body-parser (http-errors, exposed): a corrupt gzip or deflate body, an aborted or mis-sized one. */
function isBodyReadError(e: Error & { status?: number; expose?: boolean }): boolean {
  return e.status === 400 && e.expose === true;
}

export function createErrorMiddleware(log: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const appError = toAppError(err);
    const logFields = { err: appError.cause ?? appError, code: appError.code, method: req.method, path: req.path, requestId: res.locals.requestId };
    if (appError.status >= 500) log.error(logFields, 'request failed');
    else log.debug(logFields, 'request refused');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    sendErrorReply(res, appError);
  };
}

/** The error reply: the error's status (the catalogue's) and headers, `{ ...details, success: false, error, code }`. */
export function sendErrorReply(res: Response, appError: AppError): void {
  const reply: TErrorResponse = { success: false, error: appError.message, code: appError.code };
  res
    .set(appError.headers)
    .status(appError.status)
    .json({ ...appError.details, ...reply });
}

export const notFoundApi: RequestHandler = () => {
  throw new AppError('not_found', 'Not found');
};
