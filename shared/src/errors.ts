/**
 * The error catalogue: every code the API answers with (`{ success: false, error, code }`), its HTTP
 * status, the message when the code always says the same thing, and whether a better plan cures it
 * (`upgrade`: the dashboard shows the message with a link to the plans). The server's AppError takes
 * its status from here, billing's errors their messages, and the error reply's schema its code enum.
 * Codes are permanent once released: a client may act on them.
 */
import { z } from 'zod';
import type { TPlanLimitKey } from './plan-limits.ts';
import { TRIAL_ADDRESS_WINDOW_DAYS } from './plans.ts';

interface TErrorEntry {
  status: number;
  /** The one text this code is answered with; codes without one are worded where they are thrown. */
  message?: string;
  /** A better plan cures it: the refusal offers the plans. */
  upgrade?: true;
  /** The plan limit (plan-limits.ts) whose refusal this is: the server answers it past that limit. */
  limit?: TPlanLimitKey;
}

/** Codes whose message depends on what was refused (worded where they are thrown). */
const GENERAL_ERRORS = {
  bad_request: { status: 400 },
  validation_failed: { status: 400 },
  unauthorized: { status: 401 },
  password_required: { status: 401 },
  forbidden: { status: 403 },
  not_found: { status: 404 },
  conflict: { status: 409 },
  gone: { status: 410 },
  /** An ordinary request's body did not arrive within HTTP_REQUEST_TIMEOUT_SECONDS. */
  request_timeout: { status: 408 },
  payload_too_large: { status: 413 },
  /** A request body in a Content-Encoding (or charset) the server does not read. */
  unsupported_media_type: { status: 415 },
  range_not_satisfiable: { status: 416 },
  rate_limited: { status: 429 },
  internal: { status: 500 },
  service_unavailable: { status: 503 },
  insufficient_storage: { status: 507 },
  /** A chunk's bytes do not match the X-Chunk-Crc32 (or X-Chunk-Sha256) sent with it (upload sessions). */
  checksum_mismatch: { status: 400 },
  /** complete called while chunks are missing; the body lists them (upload sessions). */
  upload_incomplete: { status: 409 },
  /** An assembled file's SHA-256 differs from the one the client declared (upload sessions). */
  file_checksum_mismatch: { status: 409 },
} as const satisfies Record<string, TErrorEntry>;

/** Billing and plan limits (spec 8 plus the limits the server enforces): one text each. */
export const BILLING_ERRORS = {
  billing_not_configured: { status: 503, message: 'Billing is not configured on this server' },
  checkout_failed: { status: 502, message: 'Failed to create checkout session' },
  portal_failed: { status: 502, message: 'Failed to open the billing portal' },
  no_billing_account: { status: 409, message: 'There is no billing account yet. Choose a paid plan first.' },
  already_subscribed: { status: 409, message: 'You already have a paid plan. Change or cancel it from the billing portal.' },
  trial_used: { status: 409, message: 'Your free trial has already been used.' },
  trial_needs_confirmed_email: {
    status: 403,
    message: 'Confirm your email address to start your free trial. Open the link we emailed you, or send a new one from your account page.',
  },
  trial_address_limit: {
    status: 429,
    message: `A free trial was already started from your network in the last ${TRIAL_ADDRESS_WINDOW_DAYS} days. Choose a paid plan to use Pro now.`,
  },
  billing_unreachable: {
    status: 503,
    message: 'Your paid plan could not be cancelled because Stripe, our payment provider, cannot be reached. Nothing was deleted. Please try again in a few minutes.',
  },
  storage_limit_reached: {
    status: 413,
    message: 'This upload needs more storage than your plan has left. Upgrade your plan or delete files to make room.',
    upgrade: true,
    limit: 'storage',
  },
  delivery_too_large: { status: 413, message: 'This upload is larger than your plan allows', upgrade: true },
  site_limit_reached: {
    status: 403,
    message: "You have reached your plan's number of active sites. Upgrade your plan or delete a site to publish another.",
    upgrade: true,
    limit: 'projects',
  },
  seat_limit_reached: {
    status: 403,
    message: "Every seat of this workspace's plan is taken (members and invitations waiting). Upgrade to Business for unlimited members, or remove a member or an invitation.",
    upgrade: true,
    limit: 'collaborators',
  },
  pro_feature: { status: 403, message: 'Comments, approvals and notifications are Pro features. Upgrade to Pro to turn them on.', upgrade: true },
  over_plan_limits: {
    status: 403,
    message: "Your account is over its plan's limits, so sites can't be changed for now. They stay live. Upgrade your plan or delete sites or files to get under the limits.",
    upgrade: true,
  },
} as const satisfies Record<string, TErrorEntry>;
export type TBillingErrorCode = keyof typeof BILLING_ERRORS;

const CATALOGUE = { ...GENERAL_ERRORS, ...BILLING_ERRORS };
type TCatalogue = typeof CATALOGUE;
export type TErrorCode = keyof TCatalogue;
/** The codes that always answer the same text (ERRORS[code].message is set). */
export type TWordedErrorCode = { [C in TErrorCode]: TCatalogue[C] extends { message: string } ? C : never }[TErrorCode];
/** The refusals a better plan cures. */
export type TUpgradeErrorCode = { [C in TErrorCode]: TCatalogue[C] extends { upgrade: true } ? C : never }[TErrorCode];

/** The whole catalogue. */
export const ERRORS: Readonly<Record<TErrorCode, TErrorEntry>> = CATALOGUE;
/** The plan limits the server enforces: those a catalogue entry names as its `limit`. */
export type TEnforcedLimitKey = { [C in TErrorCode]: TCatalogue[C] extends { limit: infer K extends TPlanLimitKey } ? K : never }[TErrorCode];
type TLimitErrorCode = { [C in TErrorCode]: TCatalogue[C] extends { limit: TPlanLimitKey } ? C : never }[TErrorCode];

export const ERROR_CODES = Object.keys(ERRORS) as [TErrorCode, ...TErrorCode[]];
export const ZErrorCodeSchema = z.enum(ERROR_CODES);

/** The codes whose refusal offers the plans, in catalogue order. */
export const UPGRADE_ERROR_CODES = ERROR_CODES.filter((code): code is TUpgradeErrorCode => ERRORS[code].upgrade === true);

/** The error the server refuses with past the plan limit `key`. */
export function limitErrorCode(key: TEnforcedLimitKey): TLimitErrorCode {
  const code = ERROR_CODES.find((candidate) => ERRORS[candidate].limit === key);
  if (!code) throw new Error(`No error names the plan limit ${key}`);
  return code as TLimitErrorCode;
}

/** The HTTP status the API answers `code` with. */
export function errorStatus(code: TErrorCode): number {
  return ERRORS[code].status;
}

/** The one text of a worded code. */
export function errorMessage(code: TWordedErrorCode): string {
  return CATALOGUE[code].message;
}

/** Whether a better plan cures `code`; false for a code the catalogue does not know (an older or newer server's). */
export function isUpgradeErrorCode(code: string): code is TUpgradeErrorCode {
  return (UPGRADE_ERROR_CODES as readonly string[]).includes(code);
}
