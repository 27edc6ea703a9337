/** Billing's errors: a code of the catalogue that always says the same thing, as the app's AppError. */
import { errorMessage, type TWordedErrorCode } from '@dropsite/shared';
import { AppError } from '../http/app-error.ts';

export function billingError(code: TWordedErrorCode, options: { cause?: unknown; details?: Record<string, unknown> } = {}): AppError {
  return new AppError(code, errorMessage(code), options);
}
