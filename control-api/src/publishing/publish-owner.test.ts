/**
 * Who a published site belongs to: a signed-in creator publishes as their account (every publish
 * call, one request or resumable), with no anonymous session made or kept; anyone else publishes
 * under their anonymous session, as before accounts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { putOnPlan } from '@dropsite/testkit/control-api/billing';
import { buildUploadForm, makeJpeg, postUpload } from '@dropsite/testkit/control-api/fixtures';
import { createSignedInCreator, type TTestCreator } from '@dropsite/testkit/control-api/accounts';
import { makeBytes, sha256 } from '@dropsite/testkit/bytes';
import { completeSession, initChunked, initDirect, sendChunk } from '@dropsite/testkit/control-api/upload-session-client';

async function ownerOf(app: TTestApp, slug: string) {
  return app.deps.db.selectFrom('projects').select(['owner_creator_id', 'anonymous_session_id']).where('slug', '=', slug).executeTakeFirstOrThrow();
}

async function countAnonymousSessions(app: TTestApp): Promise<number> {
  const row = await app.deps.db
    .selectFrom('anonymous_sessions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('publishing as the signed-in creator', () => {
  let app: TTestApp;
  let creator: TTestCreator;
  beforeEach(async () => {
    app = await startTestApp();
    creator = await createSignedInCreator(app.deps, { email: 'ines@studio.example', name: 'Ines' });
    // The resumable uploads' form turns comments on, a Pro feature for an account.
    await putOnPlan(app.deps, creator.id, 'pro_monthly');
  });
  afterEach(async () => {
    await app.close();
  });

  it('POST /api/upload: the site belongs to the account and no anonymous session is issued', async () => {
    const form = buildUploadForm([{ name: 'cover.jpg', type: 'image/jpeg', bytes: await makeJpeg(400, 300, 1) }]);
    const res = await fetch(`${app.url}/api/upload`, { method: 'POST', body: form, headers: { cookie: creator.cookie } });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { slug: string };
    expect(res.headers.getSetCookie().some((c) => c.includes('dropsite_anon'))).toBe(false);
    expect(await ownerOf(app, body.slug)).toEqual({ owner_creator_id: creator.id, anonymous_session_id: null });
    expect(await countAnonymousSessions(app)).toBe(0);
  });

  it('the resumable protocols: the session opened by the account publishes a site of the account', async () => {
    const bytes = makeBytes(1000);
    for (const init of [initChunked, initDirect]) {
      const opened = await init(app.url, [{ name: 'notes.bin', bytes }], {}, { cookie: creator.cookie });
      expect(opened.status).toBe(201);
      expect(opened.headers.getSetCookie().some((c) => c.includes('dropsite_anon'))).toBe(false);
      const sessionId = String(opened.body.sessionId);
      const slug = String(opened.body.projectSlug);
      const files = (opened.body.uploadUrls ?? opened.body.files) as Array<{ fileId: string; uploadUrl?: string }>;
      const file = files[0]!;
      const uploadUrl = file.uploadUrl ?? `/api/direct-upload/chunk/${sessionId}/${file.fileId}`;
      if (init === initChunked) {
        expect((await sendChunk(app.url, uploadUrl, 0, bytes, { last: true })).status).toBe(200);
        expect((await completeSession(app.url, sessionId, [{ fileId: file.fileId, sha256: sha256(bytes) }])).status).toBe(200);
        expect(await ownerOf(app, slug)).toEqual({ owner_creator_id: creator.id, anonymous_session_id: null });
      } else {
        // The direct protocol's bytes take the same lifecycle; its init alone shows who it was opened for.
        const row = await app.deps.db.selectFrom('upload_sessions').select(['anonymous_session_id', 'form']).where('id', '=', sessionId).executeTakeFirstOrThrow();
        expect(row.anonymous_session_id).toBeNull();
        expect(JSON.parse(row.form)).toMatchObject({ ownerCreatorId: creator.id });
      }
    }
    expect(await countAnonymousSessions(app)).toBe(0);
  });

  it('without a signed-in session the site still belongs to an anonymous session', async () => {
    const form = buildUploadForm([{ name: 'cover.jpg', type: 'image/jpeg', bytes: await makeJpeg(400, 300, 2) }]);
    const { status, body } = await postUpload(app.url, form);
    expect(status).toBe(201);
    const owner = await ownerOf(app, String(body.slug));
    expect(owner.owner_creator_id).toBeNull();
    expect(owner.anonymous_session_id).not.toBeNull();
    expect(await countAnonymousSessions(app)).toBe(1);
  });
});
