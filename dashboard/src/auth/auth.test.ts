import { describe, expect, it } from 'vitest';
import type { TCreatorPublic } from '@dropsite/shared';
import { ApiRequestError } from '@dropsite/shared/browser/api-client';
import { createAuthApi } from './auth-api.ts';
import { afterSignInPath, currentReturnPath, signInHref } from './auth-paths.ts';
import { createSessionStore } from './session-store.ts';
import { describeUserAgent } from './user-agent.ts';

const CREATOR: TCreatorPublic = { id: 'c_1', email: 'mara@studio.com', name: 'Mara', avatarUrl: '', emailVerified: false, createdAt: '2026-11-26T09:00:00.000Z' };

/** A send that answers each call from `replies` (by method and path) and records what was sent. */
function fakeServer(replies: Record<string, [number, unknown]>) {
  const sent: { key: string; body: unknown }[] = [];
  const send = async (path: string, init: RequestInit) => {
    const key = `${init.method} ${path}`;
    sent.push({ key, body: init.body ? JSON.parse(String(init.body)) : undefined });
    const reply = replies[key];
    if (!reply) return new Response('{"success":false,"error":"Not found"}', { status: 404 });
    return new Response(JSON.stringify(reply[1]), { status: reply[0] });
  };
  return { api: createAuthApi(send), sent };
}

describe('account calls', () => {
  it('reads the signed-in creator, or null when signed out', async () => {
    expect(await fakeServer({ 'GET /api/auth/session': [200, { success: true, creator: CREATOR }] }).api.fetchSession()).toEqual(CREATOR);
    expect(await fakeServer({ 'GET /api/auth/session': [200, { success: true, creator: null }] }).api.fetchSession()).toBeNull();
  });

  it("signs in with the address and password, and throws the server's uniform message when refused", async () => {
    const ok = fakeServer({ 'POST /api/auth/sign-in': [200, { success: true, creator: CREATOR }] });
    expect(await ok.api.signIn({ email: 'mara@studio.com', password: 'long enough' })).toEqual(CREATOR);
    expect(ok.sent).toEqual([{ key: 'POST /api/auth/sign-in', body: { email: 'mara@studio.com', password: 'long enough' } }]);

    const refused = fakeServer({ 'POST /api/auth/sign-in': [401, { success: false, error: 'Incorrect email or password.' }] });
    const error = await refused.api.signIn({ email: 'mara@studio.com', password: 'wrong' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiRequestError);
    expect([(error as ApiRequestError).message, (error as ApiRequestError).status]).toEqual(['Incorrect email or password.', 401]);
  });

  it('treats a reply of another shape as a failed call', async () => {
    const { api } = fakeServer({ 'POST /api/auth/sign-in': [200, { success: true, creator: { id: 'c_1' } }] });
    await expect(api.signIn({ email: 'mara@studio.com', password: 'long enough' })).rejects.toThrow('Unexpected reply from the server');
  });

  it('consumes a sign-in link and reports the sites it claimed', async () => {
    const { api, sent } = fakeServer({ 'POST /api/auth/email-link/consume': [200, { success: true, creator: CREATOR, returnTo: '/dashboard', claimed: 2 }] });
    expect(await api.consumeEmailLink('tok')).toMatchObject({ claimed: 2, returnTo: '/dashboard' });
    expect(sent[0]?.body).toEqual({ token: 'tok' });
  });

  it('deletes the account with the typed address and the password, and cancels a pending address change', async () => {
    const { api, sent } = fakeServer({ 'DELETE /api/account': [200, { success: true }], 'DELETE /api/account/email': [200, { success: true }] });
    await api.deleteAccount({ confirmEmail: 'mara@studio.com', password: 'long enough' });
    await api.cancelEmailChange();
    expect(sent).toEqual([
      { key: 'DELETE /api/account', body: { confirmEmail: 'mara@studio.com', password: 'long enough' } },
      { key: 'DELETE /api/account/email', body: undefined },
    ]);

    const refused = fakeServer({ 'DELETE /api/account': [400, { success: false, error: 'Your current password is not correct.', code: 'bad_request' }] });
    await expect(refused.api.deleteAccount({ confirmEmail: 'mara@studio.com', password: 'wrong' })).rejects.toThrow('Your current password is not correct.');
  });

  it("undoes an address change with the previous address's link and reads whether the account has a password", async () => {
    const { api, sent } = fakeServer({
      'POST /api/auth/email-change/undo': [200, { success: true, creator: CREATOR }],
      'GET /api/account': [200, { success: true, creator: CREATOR, sessions: [], pendingEmail: 'new@studio.com', hasPassword: false }],
    });
    expect(await api.undoEmailChange('tok')).toEqual(CREATOR);
    expect(sent[0]).toEqual({ key: 'POST /api/auth/email-change/undo', body: { token: 'tok' } });
    expect(await api.fetchAccount()).toMatchObject({ pendingEmail: 'new@studio.com', hasPassword: false });
  });

  it('names the session it ends in the path, escaped', async () => {
    const { api, sent } = fakeServer({ 'DELETE /api/account/sessions/a%2Fb': [200, { success: true }] });
    await api.endSession('a/b');
    expect(sent[0]?.key).toBe('DELETE /api/account/sessions/a%2Fb');
  });
});

describe('session store', () => {
  it('asks once, when the first component subscribes, and tells every subscriber', async () => {
    let asks = 0;
    const store = createSessionStore(async () => {
      asks += 1;
      return CREATOR;
    });
    expect(store.getSnapshot().status).toBe('loading');
    let told = 0;
    store.subscribe(() => (told += 1));
    store.subscribe(() => (told += 1));
    await store.refresh();
    expect(store.getSnapshot()).toEqual({ status: 'signed-in', creator: CREATOR });
    expect(asks).toBe(2);
    expect(told).toBeGreaterThanOrEqual(2);
  });

  it('says signed-out for no creator, and error when the server could not be asked', async () => {
    const out = createSessionStore(async () => null);
    await out.refresh();
    expect(out.getSnapshot().status).toBe('signed-out');
    const failed = createSessionStore(async () => {
      throw new ApiRequestError('No connection', 0);
    });
    await failed.refresh();
    expect(failed.getSnapshot().status).toBe('error');
  });
});

describe('sign-in paths', () => {
  it('remembers where the flow started, and only a path of our own', () => {
    expect(signInHref('sign-up', '/?a=1')).toBe('/sign-in?mode=sign-up&returnTo=%2F%3Fa%3D1');
    expect(signInHref('sign-in', '//evil.example')).toBe('/sign-in');
    expect(signInHref('sign-in', null)).toBe('/sign-in');
  });

  it('goes back to the start, or to the dashboard, never away from the origin', () => {
    expect(afterSignInPath('/account')).toBe('/account');
    expect(afterSignInPath(null)).toBe('/dashboard');
    expect(afterSignInPath('https://evil.example/')).toBe('/dashboard');
    expect(currentReturnPath({ pathname: '/', search: '?x=1', hash: '' })).toBe('/?x=1');
    expect(currentReturnPath({ pathname: '/sign-in', search: '', hash: '' })).toBeNull();
  });
});

describe('session devices', () => {
  it('names the browser and the system in a few words', () => {
    expect(describeUserAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15')).toBe('Safari on macOS');
    expect(describeUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36 Edg/126.0')).toBe('Edge on Windows');
    expect(describeUserAgent('Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36')).toBe('Chrome on Android');
    expect(describeUserAgent('Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0')).toBe('Firefox on Linux');
    expect(describeUserAgent('curl/8.5.0')).toBe('Unknown device');
    expect(describeUserAgent(null)).toBe('Unknown device');
  });
});
