/**
 * The details step's rules (spec 5): Site Title required, Description optional, expiry not in the past;
 * contact details optional, each one valid when given (the server applies the same rule).
 */
import { findContactInfoProblems, SITE_PASSWORD_LIMITS, SITE_PASSWORD_MESSAGES, type TContactField } from '@dropsite/shared';
import type { TWizardForm } from './wizard-state.ts';

export interface TDetailsValidation {
  /** 'Configure Features' is enabled. */
  canContinue: boolean;
  title: string | null;
  expiryDate: string | null;
  /** A password that is set but shorter than the minimum. */
  password: string | null;
  /** A message per contact field that is filled in and not valid. */
  contact: Partial<Record<TContactField, string>>;
}

export const DETAILS_MESSAGES = {
  title: 'Add a title for your site.',
  expiryPast: 'Choose a date and time in the future.',
  expiryInvalid: 'Enter a complete date and time.',
  passwordShort: SITE_PASSWORD_MESSAGES.tooShort,
} as const;

const pad = (n: number) => String(n).padStart(2, '0');

/** A date as a datetime-local value in the browser's time zone, to the minute. */
export function toDateTimeLocal(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** Reads a datetime-local value as local time; null when incomplete or invalid. */
export function parseDateTimeLocal(value: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!match) return null;
  const [, y, mo, d, h, mi, s] = match.map(Number) as [number, number, number, number, number, number, number];
  const date = new Date(y, mo - 1, d, h, mi, Number.isNaN(s) ? 0 : s);
  return date.getFullYear() === y && date.getMonth() === mo - 1 && date.getDate() === d ? date : null;
}

export function validateDetails(form: Pick<TWizardForm, 'title' | 'expiryDate'> & Partial<Pick<TWizardForm, 'contactInfo' | 'password'>>, now: Date): TDetailsValidation {
  const title = form.title.trim() === '' ? DETAILS_MESSAGES.title : null;
  let expiryDate: string | null = null;
  if (form.expiryDate !== '') {
    const date = parseDateTimeLocal(form.expiryDate);
    // The input's minimum is this minute; a value within it still counts as now.
    if (!date) expiryDate = DETAILS_MESSAGES.expiryInvalid;
    else if (date.getTime() < Math.floor(now.getTime() / 60_000) * 60_000) expiryDate = DETAILS_MESSAGES.expiryPast;
  }
  const contact = findContactInfoProblems(form.contactInfo ?? {});
  const isContactValid = Object.keys(contact).length === 0;
  // Blank means no password (the server ignores a blank one too); anything else needs the minimum length.
  const pw = form.password ?? '';
  const password = pw.trim() !== '' && pw.length < SITE_PASSWORD_LIMITS.minLength ? DETAILS_MESSAGES.passwordShort : null;
  return { canContinue: !title && !expiryDate && !password && isContactValid, title, expiryDate, password, contact };
}

/** 'Expires: 12 May 2026, 18:00' in the creator's locale. */
export function formatExpiryBadge(value: string, locale?: string): string | null {
  const date = parseDateTimeLocal(value);
  if (!date) return null;
  return `Expires: ${new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(date)}`;
}

/** The expiry as the server wants it: an instant (UTC ISO), or '' for none. */
export function toExpiryInstant(value: string): string {
  const date = parseDateTimeLocal(value);
  return date ? date.toISOString() : '';
}
