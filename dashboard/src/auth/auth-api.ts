/**
 * The creator's account calls (issue 11's contract), each reply checked with the schemas of
 * @dropsite/shared. The session itself is an HttpOnly cookie the browser sends; nothing here
 * ever sees its token.
 */
import type { TAccountResponse, TCreatorPublic } from '@dropsite/shared';
import { callApi, type TSendRequest } from '@dropsite/shared/browser/api-client';
import type { z } from 'zod';
import { loadSchemas, type TSchemas } from '../schemas/lazy-schemas.ts';

/** GET /api/auth/session's answer for a visitor who is not signed in: nothing to check, so no schema is loaded. */
function isSignedOutReply(json: unknown): boolean {
  return typeof json === 'object' && json !== null && 'success' in json && json.success === true && 'creator' in json && json.creator === null;
}

/** `send` is fetch in the browser, a recording stub in tests. */
export function createAuthApi(send: TSendRequest = (path, init) => fetch(path, init)) {
  const call = async <T extends z.ZodType>(schemaOf: (schemas: TSchemas) => T, path: string, method = 'GET', body?: unknown): Promise<z.infer<T>> => {
    const json = await callApi(path, { method, body }, send);
    const schemas = await loadSchemas();
    return schemas.parseReply(schemaOf(schemas), json);
  };
  /** A call whose reply carries nothing the page uses beyond its success. */
  const act = async (path: string, method: string, body?: unknown): Promise<void> => {
    await callApi(path, { method, body }, send);
  };
  const creatorOf = async (path: string, method: string, body?: unknown): Promise<TCreatorPublic> => (await call((s) => s.ZCreatorResponseSchema, path, method, body)).creator;

  return {
    /** The signed-in creator, or null. */
    fetchSession: async (): Promise<TCreatorPublic | null> => {
      const json = await callApi('/api/auth/session', {}, send);
      if (isSignedOutReply(json)) return null;
      const schemas = await loadSchemas();
      return schemas.parseReply(schemas.ZAuthSessionResponseSchema, json).creator;
    },
    /** Mails the address a link that finishes the sign-up (the answer is the same whether or not it has an account). */
    signUp: ({ returnTo, ...body }: { email: string; password: string; name: string; returnTo: string | null }) =>
      act('/api/auth/sign-up', 'POST', returnTo ? { ...body, returnTo } : body),
    signIn: (body: { email: string; password: string }) => creatorOf('/api/auth/sign-in', 'POST', body),
    signOut: () => act('/api/auth/sign-out', 'POST'),
    signOutEverywhere: () => act('/api/auth/sign-out-everywhere', 'POST'),
    requestEmailLink: ({ email, returnTo }: { email: string; returnTo: string | null }) => act('/api/auth/email-link', 'POST', returnTo ? { email, returnTo } : { email }),
    /** The address a sign-in link signs in as, before it is used (410 once it cannot be). */
    describeEmailLink: (token: string) => call((s) => s.ZEmailLinkDescribeResponseSchema, '/api/auth/email-link/describe', 'POST', { token }),
    consumeEmailLink: (token: string) => call((s) => s.ZEmailLinkConsumeResponseSchema, '/api/auth/email-link/consume', 'POST', { token }),
    requestVerification: () => act('/api/auth/verify-email/request', 'POST'),
    verifyEmail: (token: string) => creatorOf('/api/auth/verify-email', 'POST', { token }),
    undoEmailChange: (token: string) => creatorOf('/api/auth/email-change/undo', 'POST', { token }),
    requestPasswordReset: (email: string) => act('/api/auth/password-reset/request', 'POST', { email }),
    resetPassword: (body: { token: string; password: string }) => creatorOf('/api/auth/password-reset', 'POST', body),
    fetchAccount: (): Promise<TAccountResponse> => call((s) => s.ZAccountResponseSchema, '/api/account'),
    updateName: (name: string) => creatorOf('/api/account', 'PATCH', { name }),
    requestEmailChange: (body: { email: string; password: string }) => act('/api/account/email', 'POST', body),
    cancelEmailChange: () => act('/api/account/email', 'DELETE'),
    changePassword: (body: { currentPassword: string; newPassword: string }) => act('/api/account/password', 'POST', body),
    endSession: (id: string) => act(`/api/account/sessions/${encodeURIComponent(id)}`, 'DELETE'),
    deleteAccount: (body: { confirmEmail: string; password: string }) => act('/api/account', 'DELETE', body),
  };
}

export const authApi = createAuthApi();
