/**
 * The anonymous creator's calls (spec 7.2, docs/api.md), parsed with the schemas of
 * @dropsite/shared. The server knows the creator by its HttpOnly token; the session id in the
 * paths is the one it told us (GET /api/creators/anonymous/session), never one we made up.
 */
import type { TAnonymousProject, TEmailCollectionRequest, TEmailCollectionResponse, TEngagementSummary, TEngagementUpdate, TProductEventRequest } from '@dropsite/shared';
import { ApiRequestError, callApi } from '@dropsite/shared/browser/api-client';
import type { z } from 'zod';
import { loadSchemas, type TSchemas } from '../schemas/lazy-schemas.ts';

/**
 * GET `path`, its reply checked with its schema: a reply of another shape is a failed call like any
 * other. The schemas load with the first reply to check (a browser without a session never gets one).
 */
async function requestJson<T extends z.ZodType>(schemaOf: (schemas: TSchemas) => T, path: string): Promise<z.infer<T>> {
  const json = await callApi(path);
  const schemas = await loadSchemas();
  return schemas.parseReply(schemaOf(schemas), json);
}

async function postJson(path: string, body: unknown): Promise<void> {
  await callApi(path, { method: 'POST', body });
}

export interface TAnonymousSession {
  sessionId: string;
  /** Epoch ms. */
  createdAt: number;
  /** Epoch ms: the end of the 7-day window. */
  expiresAt: number;
}

/** The caller's own anonymous session, or null when this browser has none (or it ended). */
export async function fetchAnonymousSession(): Promise<TAnonymousSession | null> {
  try {
    const reply = await requestJson((s) => s.ZAnonymousSessionResponseSchema, '/api/creators/anonymous/session');
    return { sessionId: reply.sessionId, createdAt: Date.parse(reply.createdAt), expiresAt: Date.parse(reply.expiresAt) };
  } catch (err) {
    if (err instanceof ApiRequestError && (err.status === 401 || err.status === 404 || err.status === 410)) return null;
    throw err;
  }
}

const sessionPath = (sessionId: string) => encodeURIComponent(sessionId);

export async function fetchEngagementSummary(sessionId: string): Promise<TEngagementSummary> {
  const { success: _ok, ...summary } = await requestJson((s) => s.ZEngagementSummaryResponseSchema, `/api/engagement/anonymous/${sessionPath(sessionId)}`);
  return summary;
}

/** Updates newer than `since` (all recent ones when null), newest first. */
export async function fetchEngagementUpdates(sessionId: string, since: string | null): Promise<TEngagementUpdate[]> {
  const query = since ? `?${new URLSearchParams({ since })}` : '';
  const reply = await requestJson((s) => s.ZEngagementUpdatesResponseSchema, `/api/engagement/anonymous/${sessionPath(sessionId)}/updates${query}`);
  return reply.updates;
}

/** The signed-in account's updates newer than `since` (all recent ones when null), newest first. */
export async function fetchAccountUpdates(since: string | null): Promise<TEngagementUpdate[]> {
  const query = since ? `?${new URLSearchParams({ since })}` : '';
  const reply = await requestJson((s) => s.ZEngagementUpdatesResponseSchema, `/api/creators/me/updates${query}`);
  return reply.updates;
}

export async function fetchAnonymousProjects(sessionId: string): Promise<TAnonymousProject[]> {
  const reply = await requestJson((s) => s.ZAnonymousProjectsResponseSchema, `/api/projects/anonymous/${sessionPath(sessionId)}`);
  return reply.projects;
}

/** POST /api/email-collection (spec 7.2): what was mailed. Rejects when the server refused it. */
export async function submitCollectedEmail(body: TEmailCollectionRequest): Promise<TEmailCollectionResponse['sent']> {
  const json = await callApi('/api/email-collection', { method: 'POST', body });
  const schemas = await loadSchemas();
  return schemas.parseReply(schemas.ZEmailCollectionResponseSchema, json).sent;
}

/** POST /api/analytics/events: the modal's analytics events (spec 9). Losing one never bothers the creator. */
export function sendProductEvent(body: TProductEventRequest): void {
  postJson('/api/analytics/events', body).catch(() => {});
}
