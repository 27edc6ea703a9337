/** Billing's errors: the code, status and message of shared BILLING_ERRORS as the app's AppError. */
import { BILLING_ERRORS, type TBillingErrorCode } from '@dropsite/shared';
import { AppError, ERROR_STATUS } from '../http/app-error.ts';

export function billingError(code: TBillingErrorCode, options: { cause?: unknown; details?: Record<string, unknown> } = {}): AppError {
  const error = new AppError(code, BILLING_ERRORS[code].message, options);
  if (ERROR_STATUS[code] !== BILLING_ERRORS[code].status) throw new Error(`Billing error ${code} has two statuses`);
  return error;
}
