/**
 * A multipart upload's limits from the owner's plan, before a byte of the body is read: active
 * sites (a new site), the delivery size and the storage left. A body whose Content-Length cannot fit
 * even with the most multipart framing and form fields a request may carry is refused at once; any
 * other is streamed and cut off where the plan's delivery size or storage ends (`refusal`).
 */
import { UPLOAD_LIMITS } from '@dropsite/shared';
import type { Request } from 'express';
import type { TPublishingDeps } from './publishing.deps.ts';
import { billingError } from '../billing/billing-error.ts';
import { assertUploadAllowed } from '../billing/plan-limits.ts';

/** The most bytes of a multipart body that are not file contents: every form field at its limit, and each part's boundary and headers. */
const MULTIPART_OVERHEAD_BYTES = UPLOAD_LIMITS.maxFields * UPLOAD_LIMITS.maxFieldBytes + (UPLOAD_LIMITS.maxFilesPerSite + UPLOAD_LIMITS.maxFields) * 1024;

export interface TPlanUploadTarget {
  /** The largest delivery the owner's plan allows (the publish gate counts at most this). */
  delivery: number;
  remainingBytes: number;
  refusal: () => Error;
}

export async function planUploadTarget(
  deps: Pick<TPublishingDeps, 'db' | 'clock' | 'config'>,
  req: Request,
  check: { workspaceId: string | null; newSite: boolean; freesBytes?: number },
): Promise<TPlanUploadTarget> {
  const { delivery, storageLeft } = await assertUploadAllowed(deps, { ...check, bytes: 0 });
  const byStorage = storageLeft < delivery;
  const remainingBytes = byStorage ? storageLeft : delivery;
  const refusal = () => billingError(byStorage ? 'storage_limit_reached' : 'delivery_too_large');
  const header = req.get('content-length');
  const declared = header !== undefined && /^\d{1,15}$/.test(header) ? Number(header) : undefined;
  if (declared !== undefined && declared > remainingBytes + MULTIPART_OVERHEAD_BYTES) throw refusal();
  return { delivery, remainingBytes, refusal };
}
