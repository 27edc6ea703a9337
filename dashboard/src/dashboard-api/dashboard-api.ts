/**
 * The signed-in creator's dashboard calls. The server knows the creator by the HttpOnly session
 * cookie and checks every call against the project's owner; nothing here names the creator.
 */
import { callApi, type TSendRequest } from '@dropsite/shared/browser/api-client';
import {
  ACTIVITY_POLL_MS,
  ZActivityResponseSchema,
  ZAnalyticsResponseSchema,
  ZCreatorProjectsResponseSchema,
  ZCreatorReplyResponseSchema,
  ZDailyAnalyticsResponseSchema,
  ZProjectDetailsResponseSchema,
  type TActivity,
  type TAnalytics,
  type TCreatorProject,
  type TCreatorPublic,
  type TDailyAnalyticsResponse,
  type TProjectDetails,
} from '@dropsite/shared';
import { z } from 'zod';
import { parseReply } from '../api-reply.ts';

/** The chart's ranges, in days. */
export const CHART_RANGES = [7, 30, 90] as const;
export type TChartRange = (typeof CHART_RANGES)[number];

export { ACTIVITY_POLL_MS };

/** POST /api/creators/claim: how many sites moved (0 when another claim took them first). */
const ZClaimResponseSchema = z.object({ claimed: z.number().int().nonnegative() });

async function request<T extends z.ZodType>(schema: T, path: string, call: { method?: string; body?: unknown } = {}, send?: TSendRequest): Promise<z.infer<T>> {
  return parseReply(schema, await callApi(path, call, send));
}

const projectPath = (projectId: string) => `/api/projects/${encodeURIComponent(projectId)}`;

export async function fetchMyProjects(send?: TSendRequest): Promise<{ creator: TCreatorPublic; projects: TCreatorProject[] }> {
  return request(ZCreatorProjectsResponseSchema, '/api/creators/me/projects', {}, send);
}

export async function fetchProjectDetails(projectId: string, send?: TSendRequest): Promise<TProjectDetails> {
  return (await request(ZProjectDetailsResponseSchema, `${projectPath(projectId)}/details`, {}, send)).project;
}

/** The analytics panel of a site, or of one of its files. */
export async function fetchPanelAnalytics(scope: { projectId: string; fileId?: string | null }, send?: TSendRequest): Promise<TAnalytics> {
  const query = new URLSearchParams({ projectId: scope.projectId, detailed: 'true' });
  if (scope.fileId) query.set('fileId', scope.fileId);
  return (await request(ZAnalyticsResponseSchema, `/api/analytics?${query}`, {}, send)).analytics;
}

export async function fetchDailyAnalytics(
  scope: { projectId: string; fileId?: string | null; days: TChartRange },
  send?: TSendRequest,
): Promise<Pick<TDailyAnalyticsResponse, 'days' | 'totals'>> {
  const query = new URLSearchParams({ days: String(scope.days) });
  if (scope.fileId) query.set('fileId', scope.fileId);
  return await request(ZDailyAnalyticsResponseSchema, `${projectPath(scope.projectId)}/analytics/daily?${query}`, {}, send);
}

/** Engagement newer than `since` (the `now` of the previous answer), and the server's `now` to ask from next. */
export async function fetchActivitySince(projectId: string, since: string | null, send?: TSendRequest): Promise<{ activity: TActivity[]; now: string }> {
  const query = since ? `?${new URLSearchParams({ since })}` : '';
  return request(ZActivityResponseSchema, `${projectPath(projectId)}/activity${query}`, {}, send);
}

/** The creator's reply to a visitor's comment; shown on the site as the creator's. */
export async function postCreatorReply(scope: { projectId: string; commentId: string; text: string }, send?: TSendRequest): Promise<void> {
  await request(
    ZCreatorReplyResponseSchema,
    `${projectPath(scope.projectId)}/comments/${encodeURIComponent(scope.commentId)}/replies`,
    { method: 'POST', body: { text: scope.text } },
    send,
  );
}

/** Moves every site of this browser's anonymous session to the signed-in creator; answers how many moved. */
export async function claimAnonymousProjects(anonymousSessionId: string, send?: TSendRequest): Promise<number> {
  return (await request(ZClaimResponseSchema, '/api/creators/claim', { method: 'POST', body: { anonymousSessionId } }, send)).claimed;
}

/** The CSV of a site's engagement: a plain link, the browser downloads it with the session cookie. */
export function engagementCsvPath(projectId: string): string {
  return `${projectPath(projectId)}/engagement.csv`;
}
