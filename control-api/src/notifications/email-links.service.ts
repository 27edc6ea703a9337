/** What the links in our email name: the address row a confirmation or a signed unsubscribe link points at, and the sites it covers. */
import { z } from 'zod';
import type { TNotificationsDeps } from './notifications.deps.ts';
import { parseSiteSettings } from '../site-records/site-records.repository.ts';
import { toOneLine } from './notification-messages.ts';
import { expiredConfirmLinkPage, invalidConfirmLinkPage } from './email-pages.ts';
import { findEmailAddressById, findEmailAddressByTokenHash, listSitesOfOwner, setEmailAddressStatus, type TEmailAddressRow } from './email-addresses.repository.ts';
import { confirmedAccountEmailOf, hashToken, isValidUnsubscribeToken, notificationAddressOf } from './email-confirmation.service.ts';

const ACCOUNT_OWNER = /^creator:(.+)$/;

type TDeps = Pick<TNotificationsDeps, 'db' | 'config' | 'clock' | 'log' | 'keys'>;

const ZConfirmQuerySchema = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{43}$/) });
const ZUnsubscribeQuerySchema = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{22}$/), token: z.string().regex(/^[A-Za-z0-9_-]{43}$/) });

/**
 * The titles of the owner's sites that send notifications to this address, one short line each: those
 * naming it, and (the account's own address) those naming none, which notify the account's address.
 */
export async function titlesFor(deps: TDeps, row: TEmailAddressRow): Promise<string[]> {
  const creatorId = ACCOUNT_OWNER.exec(row.owner_key)?.[1] ?? null;
  const isAccountAddress = creatorId !== null && (await confirmedAccountEmailOf(deps.db, creatorId)) === row.email;
  return (await listSitesOfOwner(deps.db, row.owner_key))
    .filter((p) => {
      const settings = parseSiteSettings(p.settings);
      const address = notificationAddressOf(settings);
      return address === row.email || (isAccountAddress && address === null && settings.enableNotifications && settings.notificationEmail.trim() === '');
    })
    .slice(0, 10)
    .map((p) => toOneLine(p.title, 80));
}

/** The row a live confirmation token names, or the page to show instead. */
export async function confirmTarget(deps: TDeps, query: unknown): Promise<{ row: TEmailAddressRow; token: string } | { status: number; html: string }> {
  const parsed = ZConfirmQuerySchema.safeParse(query);
  if (!parsed.success) return { status: 404, html: invalidConfirmLinkPage() };
  const row = await findEmailAddressByTokenHash(deps.db, hashToken(parsed.data.token));
  if (row?.status !== 'pending') return { status: 404, html: invalidConfirmLinkPage() };
  if (row.token_expires_at === null || row.token_expires_at <= deps.clock.now()) return { status: 410, html: expiredConfirmLinkPage() };
  return { row, token: parsed.data.token };
}

/** The row a signed unsubscribe link names, or null. */
export async function unsubscribeTarget(deps: TDeps, query: unknown): Promise<{ row: TEmailAddressRow; query: string } | null> {
  const parsed = ZUnsubscribeQuerySchema.safeParse(query);
  if (!parsed.success || !isValidUnsubscribeToken(deps, parsed.data.id, parsed.data.token)) return null;
  const row = await findEmailAddressById(deps.db, parsed.data.id);
  return row ? { row, query: `id=${encodeURIComponent(parsed.data.id)}&token=${encodeURIComponent(parsed.data.token)}` } : null;
}

/** Confirms, unsubscribes or subscribes the address again, and logs it. */
export async function setAddressStatus(deps: TDeps, id: string, status: 'confirmed' | 'unsubscribed', logMessage: string): Promise<void> {
  await setEmailAddressStatus(deps.db, id, status, deps.clock.now());
  deps.log.info({ emailAddressId: id }, logMessage);
}
