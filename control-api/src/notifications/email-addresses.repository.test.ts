import { expect, it } from 'vitest';
import { newId } from '../db/ids.ts';
import { createSiteWithFiles } from '../site-records/site-records.repository.ts';
import { describeEachDialect, makeFileRow, makeSiteRow } from '@dropsite/testkit/control-api/test-database';
import {
  claimOwedConfirmation,
  countConfirmationsSentTo,
  countRecipientRequests,
  deleteRecipientRequestsBefore,
  findEmailAddress,
  findEmailAddressById,
  findEmailAddressByTokenHash,
  insertPendingEmailAddress,
  insertRecipientRequest,
  listOwedConfirmations,
  listSitesOfOwner,
  markConfirmationOwed,
  releaseConfirmation,
  setEmailAddressStatus,
} from './email-addresses.repository.ts';

const NOW = 1_763_900_000_000;

await describeEachDialect('notification addresses', (handle) => {
  it('keeps one row per address and creator, owing a confirmation when new', async () => {
    await insertPendingEmailAddress(handle.db, { id: newId(), email: 'a@example.com', ownerKey: 'anon:1', now: NOW });
    await insertPendingEmailAddress(handle.db, { id: newId(), email: 'a@example.com', ownerKey: 'anon:1', now: NOW + 5 });
    await insertPendingEmailAddress(handle.db, { id: newId(), email: 'a@example.com', ownerKey: 'anon:2', now: NOW });
    const row = await findEmailAddress(handle.db, 'a@example.com', 'anon:1');
    expect(row).toMatchObject({ status: 'pending', confirm_requested_at: NOW, confirm_sent_at: null, created_at: NOW, confirm_attempts: 0 });
    expect(await findEmailAddressById(handle.db, row!.id)).toMatchObject({ owner_key: 'anon:1' });
    expect((await listOwedConfirmations(handle.db, 10)).map((r) => r.owner_key).sort()).toEqual(['anon:1', 'anon:2']);
  });

  it('claims an owed confirmation once, finds it by token hash, and counts sends per address', async () => {
    const row = (await findEmailAddress(handle.db, 'a@example.com', 'anon:1'))!;
    const claim = { id: row.id, tokenHash: 'h'.repeat(64), expiresAt: NOW + 1000, now: NOW + 10 };
    const [first, second] = await Promise.all([claimOwedConfirmation(handle.db, claim), claimOwedConfirmation(handle.db, claim)]);
    expect([first, second].filter(Boolean)).toHaveLength(1);
    expect(await findEmailAddressByTokenHash(handle.db, 'h'.repeat(64))).toMatchObject({
      id: row.id,
      confirm_sent_at: NOW + 10,
      confirm_requested_at: null,
      token_expires_at: NOW + 1000,
    });
    expect(await countConfirmationsSentTo(handle.db, 'a@example.com', NOW)).toBe(1);
    expect(await countConfirmationsSentTo(handle.db, 'a@example.com', NOW + 11)).toBe(0);
  });

  it('gives a failed send back (token forgotten) and stops retrying after the last attempt', async () => {
    const row = (await findEmailAddress(handle.db, 'a@example.com', 'anon:2'))!;
    for (let attempt = 1; attempt <= 3; attempt++) {
      expect(await claimOwedConfirmation(handle.db, { id: row.id, tokenHash: `t${attempt}`, expiresAt: NOW + 1000, now: NOW })).toBe(true);
      await releaseConfirmation(handle.db, { id: row.id, previousSentAt: null, maxAttempts: 3, now: NOW + attempt });
      const after = (await findEmailAddressById(handle.db, row.id))!;
      expect(after).toMatchObject({ confirm_attempts: attempt, token_hash: null, confirm_sent_at: null });
      expect(after.confirm_requested_at).toBe(attempt < 3 ? NOW + attempt : null);
    }
    // The owner giving it again asks afresh.
    await markConfirmationOwed(handle.db, row.id, NOW + 50);
    expect(await findEmailAddressById(handle.db, row.id)).toMatchObject({ confirm_requested_at: NOW + 50, confirm_attempts: 0 });
  });

  it('confirms (using up the token) and unsubscribes', async () => {
    const row = (await findEmailAddress(handle.db, 'a@example.com', 'anon:1'))!;
    await setEmailAddressStatus(handle.db, row.id, 'confirmed', NOW + 20);
    expect(await findEmailAddressById(handle.db, row.id)).toMatchObject({ status: 'confirmed', confirmed_at: NOW + 20, token_hash: null });
    expect(await findEmailAddressByTokenHash(handle.db, 'h'.repeat(64))).toBeNull();
    await setEmailAddressStatus(handle.db, row.id, 'unsubscribed', NOW + 30);
    expect(await findEmailAddressById(handle.db, row.id)).toMatchObject({ status: 'unsubscribed', unsubscribed_at: NOW + 30 });
    // Only pending rows owe confirmations.
    await markConfirmationOwed(handle.db, row.id, NOW + 40);
    expect((await listOwedConfirmations(handle.db, 10)).map((r) => r.id)).not.toContain(row.id);
  });

  it('counts distinct recipients per client and day, and forgets past days', async () => {
    for (const email of ['x@example.com', 'y@example.com', 'x@example.com']) await insertRecipientRequest(handle.db, { requester: 'r1', day: 100, email, now: NOW });
    await insertRecipientRequest(handle.db, { requester: 'r1', day: 101, email: 'z@example.com', now: NOW });
    expect(await countRecipientRequests(handle.db, 'r1', 100, 'x@example.com')).toEqual({ count: 2, includes: true });
    expect(await countRecipientRequests(handle.db, 'r1', 100, 'z@example.com')).toEqual({ count: 2, includes: false });
    expect(await countRecipientRequests(handle.db, 'r2', 100, 'x@example.com')).toEqual({ count: 0, includes: false });
    await deleteRecipientRequestsBefore(handle.db, 101);
    expect((await countRecipientRequests(handle.db, 'r1', 100, 'x@example.com')).count).toBe(0);
    expect((await countRecipientRequests(handle.db, 'r1', 101, 'z@example.com')).count).toBe(1);
  });

  it("lists an owner's live sites", async () => {
    const mine = makeSiteRow({ anonymous_session_id: 'anon-9', title: 'Mine' });
    const gone = makeSiteRow({ anonymous_session_id: 'anon-9', title: 'Gone', deleted_at: NOW });
    const other = makeSiteRow({ anonymous_session_id: 'anon-8', title: 'Other' });
    for (const p of [mine, gone, other])
      await createSiteWithFiles(
        handle.db,
        p,
        [makeFileRow(p.id, 0)].map(({ project_id: _p, ...f }) => f),
      );
    expect((await listSitesOfOwner(handle.db, 'anon:anon-9')).map((p) => p.title)).toEqual(['Mine']);
    expect((await listSitesOfOwner(handle.db, `project:${other.id}`)).map((p) => p.title)).toEqual(['Other']);
    expect(await listSitesOfOwner(handle.db, 'nobody')).toEqual([]);
  });
});
