/**
 * The owner's calls that change a published site: its settings, its files and its deletion, and the
 * build each change starts. The server checks every call against the signed-in owner.
 */
import { ApiRequestError, callApi, readErrorEnvelope, type TSendRequest } from '@dropsite/shared/browser/api-client';
import { ZBuildProgressResponseSchema, ZManagedProjectResponseSchema, type TBuildProgress, type TManagedProject, type TProjectUpdate } from '@dropsite/shared';
import { z } from 'zod';
import { parseReply } from '../../api-reply.ts';

const projectPath = (projectId: string) => `/api/projects/${encodeURIComponent(projectId)}`;

function parseProject(json: unknown): TManagedProject {
  return parseReply(ZManagedProjectResponseSchema, json).project;
}

export async function fetchManagedProject(projectId: string, send?: TSendRequest): Promise<TManagedProject> {
  return parseProject(await callApi(`${projectPath(projectId)}/settings`, {}, send));
}

export async function updateManagedProject(projectId: string, update: TProjectUpdate, send?: TSendRequest): Promise<TManagedProject> {
  return parseProject(await callApi(projectPath(projectId), { method: 'PATCH', body: update }, send));
}

export async function removeManagedFile(projectId: string, fileId: string, send?: TSendRequest): Promise<TManagedProject> {
  return parseProject(await callApi(`${projectPath(projectId)}/files/${encodeURIComponent(fileId)}`, { method: 'DELETE' }, send));
}

export async function deleteManagedProject(projectId: string, confirmTitle: string, send?: TSendRequest): Promise<void> {
  z.object({ success: z.literal(true) }).parse(await callApi(projectPath(projectId), { method: 'DELETE', body: { confirmTitle } }, send));
}

export async function fetchBuildProgress(projectId: string, send?: TSendRequest): Promise<TBuildProgress | null> {
  return parseReply(ZBuildProgressResponseSchema, await callApi(`${projectPath(projectId)}/build`, {}, send)).build;
}

/** Multipart bodies are streamed by the browser itself (callApi sends JSON only). */
async function sendFiles(path: string, method: 'POST' | 'PUT', form: FormData, send: TSendRequest): Promise<TManagedProject> {
  let res: Response;
  try {
    res = await send(path, { method, credentials: 'same-origin', headers: { Accept: 'application/json' }, body: form });
  } catch {
    throw new ApiRequestError('No connection', 0);
  }
  const json: unknown = await res.json().catch(() => null);
  if (!res.ok) throw new ApiRequestError(readErrorEnvelope(json) ?? `Request failed (${res.status})`, res.status);
  return parseProject(json);
}

const defaultSend: TSendRequest = (p, init) => fetch(p, init);

export async function addManagedFiles(projectId: string, files: readonly File[], send: TSendRequest = defaultSend): Promise<TManagedProject> {
  const form = new FormData();
  for (const file of files) form.append('files', file, file.name);
  return sendFiles(`${projectPath(projectId)}/files`, 'POST', form, send);
}

export async function replaceManagedFile(projectId: string, fileId: string, file: File, send: TSendRequest = defaultSend): Promise<TManagedProject> {
  const form = new FormData();
  form.append('file', file, file.name);
  return sendFiles(`${projectPath(projectId)}/files/${encodeURIComponent(fileId)}`, 'PUT', form, send);
}
