/** The public forms' messages and the newsletter's subscribers: the only module that queries those rows. */
import type { Kysely, Selectable } from 'kysely';
import type { Database, MessagesTable, NewsletterSubscribersTable } from '../db/tables.ts';

type TDb = Kysely<Database>;

export type TMessageRow = Selectable<MessagesTable>;
/** What a form gives; the email columns start as 'first attempt under way'. */
export type TNewMessage = Omit<TMessageRow, 'emailed_at' | 'email_attempts' | 'email_attempted_at'>;
export type TSubscriberRow = Selectable<NewsletterSubscribersTable>;

/** Stores the message with its first email attempt claimed (the caller sends it now). */
export async function insertMessage(db: TDb, row: TNewMessage): Promise<void> {
  await db
    .insertInto('messages')
    .values({ ...row, emailed_at: null, email_attempts: 1, email_attempted_at: row.created_at })
    .execute();
}

/** Messages not yet emailed whose last attempt started before `attemptedBefore`, oldest first. */
export async function listUnsentMessages(db: TDb, options: { attemptedBefore: number; createdAfter: number; maxAttempts: number; limit: number }): Promise<TMessageRow[]> {
  return db
    .selectFrom('messages')
    .selectAll()
    .where('emailed_at', 'is', null)
    .where('email_attempted_at', '<', options.attemptedBefore)
    .where('email_attempts', '<', options.maxAttempts)
    .where('created_at', '>', options.createdAfter)
    .orderBy('created_at')
    .limit(options.limit)
    .execute();
}

/** Claims the next attempt, if no other process did since the row was read. */
export async function claimMessageEmail(db: TDb, claim: { id: string; previousAttemptedAt: number | null; now: number }): Promise<boolean> {
  const result = await db
    .updateTable('messages')
    .set((eb) => ({ email_attempted_at: claim.now, email_attempts: eb('email_attempts', '+', 1) }))
    .where('id', '=', claim.id)
    .where('emailed_at', 'is', null)
    .where((eb) => (claim.previousAttemptedAt === null ? eb('email_attempted_at', 'is', null) : eb('email_attempted_at', '=', claim.previousAttemptedAt)))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function markMessageEmailed(db: TDb, id: string, now: number): Promise<void> {
  await db.updateTable('messages').set({ emailed_at: now }).where('id', '=', id).execute();
}

export async function findMessageById(db: TDb, id: string): Promise<TMessageRow | null> {
  return (await db.selectFrom('messages').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

export async function findSubscriberByEmail(db: TDb, email: string): Promise<TSubscriberRow | null> {
  return (await db.selectFrom('newsletter_subscribers').selectAll().where('email', '=', email).executeTakeFirst()) ?? null;
}

export async function findSubscriberById(db: TDb, id: string): Promise<TSubscriberRow | null> {
  return (await db.selectFrom('newsletter_subscribers').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

export async function findSubscriberByTokenHash(db: TDb, tokenHash: string): Promise<TSubscriberRow | null> {
  return (await db.selectFrom('newsletter_subscribers').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst()) ?? null;
}

/** Adds a pending subscriber with no confirmation sent yet; an address already known is left as it is. */
export async function insertPendingSubscriber(db: TDb, row: { id: string; email: string; now: number }): Promise<void> {
  await db
    .insertInto('newsletter_subscribers')
    .values({
      id: row.id,
      email: row.email,
      status: 'pending',
      token_hash: null,
      token_expires_at: null,
      confirm_sent_at: null,
      confirmed_at: null,
      unsubscribed_at: null,
      created_at: row.now,
      updated_at: row.now,
    })
    .onConflict((oc) => oc.column('email').doNothing())
    .execute();
}

/**
 * Makes the row pending with a new confirmation token, if no one else did since it was read (the
 * confirmation last sent at `previousSentAt`): of two requests at once, only one sends a message.
 */
export async function claimConfirmation(db: TDb, claim: { id: string; previousSentAt: number | null; tokenHash: string; expiresAt: number; now: number }): Promise<boolean> {
  const result = await db
    .updateTable('newsletter_subscribers')
    .set({ status: 'pending', token_hash: claim.tokenHash, token_expires_at: claim.expiresAt, confirm_sent_at: claim.now, updated_at: claim.now })
    .where('id', '=', claim.id)
    .where('status', '!=', 'confirmed')
    .where((eb) => (claim.previousSentAt === null ? eb('confirm_sent_at', 'is', null) : eb('confirm_sent_at', '=', claim.previousSentAt)))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** A confirmation that could not be sent: the next request may try again at once. */
export async function releaseConfirmation(db: TDb, id: string, sentAt: number): Promise<void> {
  await db.updateTable('newsletter_subscribers').set({ confirm_sent_at: null }).where('id', '=', id).where('confirm_sent_at', '=', sentAt).execute();
}

export async function setSubscriberStatus(db: TDb, id: string, status: 'confirmed' | 'unsubscribed', now: number): Promise<void> {
  await db
    .updateTable('newsletter_subscribers')
    .set(status === 'confirmed' ? { status, confirmed_at: now, unsubscribed_at: null, updated_at: now } : { status, unsubscribed_at: now, updated_at: now })
    .where('id', '=', id)
    .execute();
}
