/**
 * The creator's account calls (issue 11's contract), each reply checked with the schemas of
 * @dropsite/shared. The session itself is an HttpOnly cookie the browser sends; nothing here
 * ever sees its token.
 */
import {
  ZAccountResponseSchema,
  ZAuthSessionResponseSchema,
  ZCreatorResponseSchema,
  ZEmailLinkConsumeResponseSchema,
  type TAccountResponse,
  type TCreatorPublic,
} from '@dropsite/shared';
import { callApi, type TSendRequest } from '@dropsite/shared/browser/api-client';
import type { z } from 'zod';
import { parseReply } from '../api-reply.ts';

/** `send` is fetch in the browser, a recording stub in tests. */
export function createAuthApi(send: TSendRequest = (path, init) => fetch(path, init)) {
  const call = async <T extends z.ZodType>(schema: T, path: string, method = 'GET', body?: unknown): Promise<z.infer<T>> => {
    return parseReply(schema, await callApi(path, { method, body }, send));
  };
  /** A call whose reply carries nothing the page uses beyond its success. */
  const act = async (path: string, method: string, body?: unknown): Promise<void> => {
    await callApi(path, { method, body }, send);
  };
  const creatorOf = async (path: string, method: string, body?: unknown): Promise<TCreatorPublic> => (await call(ZCreatorResponseSchema, path, method, body)).creator;

  return {
    /** The signed-in creator, or null. */
    fetchSession: async (): Promise<TCreatorPublic | null> => (await call(ZAuthSessionResponseSchema, '/api/auth/session')).creator,
    signUp: (body: { email: string; password: string; name: string }) => creatorOf('/api/auth/sign-up', 'POST', body),
    signIn: (body: { email: string; password: string }) => creatorOf('/api/auth/sign-in', 'POST', body),
    signOut: () => act('/api/auth/sign-out', 'POST'),
    signOutEverywhere: () => act('/api/auth/sign-out-everywhere', 'POST'),
    requestEmailLink: ({ email, returnTo }: { email: string; returnTo: string | null }) => act('/api/auth/email-link', 'POST', returnTo ? { email, returnTo } : { email }),
    consumeEmailLink: (token: string) => call(ZEmailLinkConsumeResponseSchema, '/api/auth/email-link/consume', 'POST', { token }),
    requestVerification: () => act('/api/auth/verify-email/request', 'POST'),
    verifyEmail: (token: string) => creatorOf('/api/auth/verify-email', 'POST', { token }),
    requestPasswordReset: (email: string) => act('/api/auth/password-reset/request', 'POST', { email }),
    resetPassword: (body: { token: string; password: string }) => creatorOf('/api/auth/password-reset', 'POST', body),
    fetchAccount: (): Promise<TAccountResponse> => call(ZAccountResponseSchema, '/api/account'),
    updateName: (name: string) => creatorOf('/api/account', 'PATCH', { name }),
    requestEmailChange: (body: { email: string; password: string }) => act('/api/account/email', 'POST', body),
    changePassword: (body: { currentPassword: string; newPassword: string }) => act('/api/account/password', 'POST', body),
    endSession: (id: string) => act(`/api/account/sessions/${encodeURIComponent(id)}`, 'DELETE'),
    deleteAccount: (confirmEmail: string) => act('/api/account', 'DELETE', { confirmEmail }),
  };
}

export const authApi = createAuthApi();
