import { describe, expect, it } from 'vitest';
import { ApiRequestError, callApi, readErrorEnvelope, type TSendRequest } from './api-client.ts';

/** A send that records the request and answers with the given status and body. */
function answer(status: number, body: string) {
  const sent: { path: string; init: RequestInit }[] = [];
  const send: TSendRequest = async (path, init) => {
    sent.push({ path, init });
    return new Response(body, { status });
  };
  return { send, sent };
}

async function failure(promise: Promise<unknown>): Promise<ApiRequestError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof ApiRequestError)) throw new Error(`expected an ApiRequestError, got ${String(error)}`);
  return error;
}

describe('API client', () => {
  it('reads the message of the error envelope and nothing else', () => {
    expect(readErrorEnvelope({ success: false, error: 'Site not found', code: 'not_found' })).toBe('Site not found');
    expect(readErrorEnvelope({ success: false, error: 42 })).toBeNull();
    expect(readErrorEnvelope('Site not found')).toBeNull();
    expect(readErrorEnvelope(null)).toBeNull();
  });

  it('sends a GET with cookies and answers the JSON', async () => {
    const { send, sent } = answer(200, '{"success":true,"n":1}');
    expect(await callApi('/api/x', {}, send)).toEqual({ success: true, n: 1 });
    expect(sent).toEqual([{ path: '/api/x', init: { method: 'GET', credentials: 'same-origin', headers: { Accept: 'application/json' }, body: undefined } }]);
  });

  it('sends a body as JSON, and answers null for an empty or non-JSON reply', async () => {
    const { send, sent } = answer(200, '');
    expect(await callApi('/api/x', { method: 'POST', body: { a: 1 } }, send)).toBeNull();
    expect(sent[0]?.init).toEqual({ method: 'POST', credentials: 'same-origin', headers: { Accept: 'application/json', 'Content-Type': 'application/json' }, body: '{"a":1}' });
    expect(await callApi('/api/x', {}, answer(200, '<html>').send)).toBeNull();
  });

  it("throws the server's message and status when it refuses, a plain message when it gave none", async () => {
    const refused = await failure(callApi('/api/x', {}, answer(429, '{"success":false,"error":"Too many requests"}').send));
    expect([refused.message, refused.status, refused.name]).toEqual(['Too many requests', 429, 'ApiRequestError']);
    const bare = await failure(callApi('/api/x', {}, answer(502, '<html>Bad gateway</html>').send));
    expect([bare.message, bare.status]).toEqual(['Request failed (502)', 502]);
  });

  it("throws 'No connection' with status 0 when no answer came", async () => {
    const offline = await failure(
      callApi('/api/x', {}, async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    expect([offline.message, offline.status]).toEqual(['No connection', 0]);
  });
});
