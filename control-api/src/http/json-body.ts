/** What every JSON body parser of the API shares. */
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { AppError } from './app-error.ts';

/** `verify` for express.json: a body that is not valid UTF-8 is refused (400) instead of being decoded with U+FFFD. */
export function rejectInvalidUtf8(_req: IncomingMessage, _res: unknown, body: Buffer): void {
  if (!isUtf8(body)) throw new AppError('bad_request', 'Request body is not valid UTF-8');
}
