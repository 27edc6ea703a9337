import { expect, it } from 'vitest';
import { newId } from '../db/ids.ts';
import { describeEachDialect } from '@dropsite/testkit/control-api/test-database';
import {
  claimConfirmation,
  claimMessageEmail,
  listUnsentMessages,
  findMessageById,
  findSubscriberByEmail,
  findSubscriberById,
  findSubscriberByTokenHash,
  insertMessage,
  insertPendingSubscriber,
  markMessageEmailed,
  releaseConfirmation,
  setSubscriberStatus,
} from './inbox.repository.ts';

const NOW = 1_763_900_000_000;

await describeEachDialect('form messages and newsletter subscribers', (handle) => {
  it('stores a message unsent, then records when it was emailed', async () => {
    const id = newId();
    const message = 'Line one\nline two, with émoji 🎉 and <b>markup</b>';
    await insertMessage(handle.db, { id, kind: 'feedback', name: '', email: '', subject: 'Request Template', company: '', message, rating: 5, created_at: NOW });
    expect(await findMessageById(handle.db, id)).toEqual({
      id,
      kind: 'feedback',
      name: '',
      email: '',
      subject: 'Request Template',
      company: '',
      message,
      rating: 5,
      created_at: NOW,
      emailed_at: null,
      email_attempts: 1,
      email_attempted_at: NOW,
    });
    await markMessageEmailed(handle.db, id, NOW + 5);
    expect((await findMessageById(handle.db, id))?.emailed_at).toBe(NOW + 5);
  });

  it('lists unsent messages due for another attempt, and lets one of two processes claim it', async () => {
    const id = newId();
    await insertMessage(handle.db, { id, kind: 'contact', name: 'Ada', email: 'ada@example.com', subject: 'Hi', company: '', message: 'Hello', rating: null, created_at: NOW });
    const due = { createdAfter: NOW - 1, maxAttempts: 3, limit: 10 };
    expect(await listUnsentMessages(handle.db, { ...due, attemptedBefore: NOW })).toEqual([]);
    const [row] = await listUnsentMessages(handle.db, { ...due, attemptedBefore: NOW + 1 });
    expect(row).toMatchObject({ id, email_attempts: 1 });

    const claim = { id, previousAttemptedAt: NOW, now: NOW + 100 };
    const results = await Promise.all([claimMessageEmail(handle.db, claim), claimMessageEmail(handle.db, claim)]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await findMessageById(handle.db, id)).toMatchObject({ email_attempts: 2, email_attempted_at: NOW + 100 });
    // Out of attempts, too old, or sent: no longer listed.
    expect(await listUnsentMessages(handle.db, { ...due, maxAttempts: 2, attemptedBefore: NOW + 101 })).toEqual([]);
    expect(await listUnsentMessages(handle.db, { ...due, createdAfter: NOW, attemptedBefore: NOW + 101 })).toEqual([]);
    await markMessageEmailed(handle.db, id, NOW + 200);
    expect(await listUnsentMessages(handle.db, { ...due, attemptedBefore: NOW + 1000 })).toEqual([]);
    expect(await claimMessageEmail(handle.db, { id, previousAttemptedAt: NOW + 100, now: NOW + 300 })).toBe(false);
  });

  it('keeps one subscriber per address and lets one of two requests at once claim the confirmation', async () => {
    await insertPendingSubscriber(handle.db, { id: newId(), email: 'a@example.com', now: NOW });
    await insertPendingSubscriber(handle.db, { id: newId(), email: 'a@example.com', now: NOW + 1 });
    const row = (await findSubscriberByEmail(handle.db, 'a@example.com'))!;
    expect(row).toMatchObject({ status: 'pending', confirm_sent_at: null, token_hash: null, created_at: NOW });

    const claim = { id: row.id, previousSentAt: null, tokenHash: 'h'.repeat(64), expiresAt: NOW + 1000, now: NOW + 10 };
    const results = await Promise.all([claimConfirmation(handle.db, claim), claimConfirmation(handle.db, { ...claim, tokenHash: 'i'.repeat(64) })]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const claimed = (await findSubscriberById(handle.db, row.id))!;
    expect(claimed.confirm_sent_at).toBe(NOW + 10);
    expect(await findSubscriberByTokenHash(handle.db, claimed.token_hash!)).toMatchObject({ id: row.id });

    // A failed send gives the claim back; a later send claims again from null.
    await releaseConfirmation(handle.db, row.id, NOW + 10);
    expect((await findSubscriberById(handle.db, row.id))?.confirm_sent_at).toBeNull();
    expect(await claimConfirmation(handle.db, { ...claim, now: NOW + 20 })).toBe(true);
  });

  it('confirms and unsubscribes; a confirmed subscriber is never claimed for another confirmation', async () => {
    const row = (await findSubscriberByEmail(handle.db, 'a@example.com'))!;
    await setSubscriberStatus(handle.db, row.id, 'confirmed', NOW + 30);
    expect(await findSubscriberById(handle.db, row.id)).toMatchObject({ status: 'confirmed', confirmed_at: NOW + 30, unsubscribed_at: null });
    expect(await claimConfirmation(handle.db, { id: row.id, previousSentAt: NOW + 20, tokenHash: 'j'.repeat(64), expiresAt: NOW + 1000, now: NOW + 40 })).toBe(false);
    await setSubscriberStatus(handle.db, row.id, 'unsubscribed', NOW + 50);
    expect(await findSubscriberById(handle.db, row.id)).toMatchObject({ status: 'unsubscribed', unsubscribed_at: NOW + 50 });
    expect(await claimConfirmation(handle.db, { id: row.id, previousSentAt: NOW + 20, tokenHash: 'j'.repeat(64), expiresAt: NOW + 1000, now: NOW + 60 })).toBe(true);
    expect((await findSubscriberById(handle.db, row.id))?.status).toBe('pending');
  });
});
