/**
 * The contact fields a publish sends: shared by every upload protocol and the wizard's preview, and
 * free of the upload machinery so the preview does not load it.
 */
import type { TContactField } from '@dropsite/shared';

/** The filled-in contact fields, trimmed; null when there are none. */
export function filledContactInfo(info: Partial<Record<TContactField, string>> | undefined): Partial<Record<TContactField, string>> | null {
  const filled = Object.entries(info ?? {})
    .map(([field, value]) => [field, (value ?? '').trim()] as const)
    .filter(([, value]) => value !== '');
  return filled.length > 0 ? Object.fromEntries(filled) : null;
}
