/** What the account pages tell the creator about a failed call, in one voice. */
import { ApiRequestError } from '@dropsite/shared/browser/api-client';

/** The server's own words for a refusal (4xx), else no connection (status 0) or our fault. */
export function failureMessage(error: unknown): string {
  if (error instanceof ApiRequestError && error.status === 0) return 'No connection. Check your network and try again.';
  if (error instanceof ApiRequestError && error.status < 500) return error.message;
  return 'Something went wrong on our side. Please try again.';
}
