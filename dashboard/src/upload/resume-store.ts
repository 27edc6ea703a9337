/**
 * What lets a chunked upload continue after a dropped connection or a reload: the session id,
 * the server's file ids and a fingerprint of the chosen files (name, size, lastModified), kept
 * in localStorage. File bytes are never stored; the creator chooses the same files again.
 */
import type { TFileFingerprint, TResumableUpload, TUploadDraft } from '@dropsite/shared';
import { loadedSchemas, type TSchemas } from '../schemas/lazy-schemas.ts';

export const RESUME_STORAGE_KEY = 'dropsite:upload-session';
/** Sessions older than this are not offered again (the server expires them too). */
export const RESUME_MAX_AGE_MS = 24 * 60 * 60 * 1000;

export type { TFileFingerprint };
export type TResumableSession = TResumableUpload;

export function fingerprintFile(file: { name: string; size: number; lastModified: number }): TFileFingerprint {
  return { name: file.name, size: file.size, lastModified: file.lastModified };
}

/** True when both lists hold the same files in the same order. */
export function isSameFileList(a: readonly TFileFingerprint[], b: readonly TFileFingerprint[]): boolean {
  return a.length === b.length && a.every((f, i) => f.name === b[i]!.name && f.size === b[i]!.size && f.lastModified === b[i]!.lastModified);
}

type TStorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const defaultStorage = (): TStorageLike | null => {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // storage disabled by the browser's privacy settings
  }
};

/** Writes a value as JSON; quota or privacy mode only means the upload cannot resume after a reload. */
function writeJson(key: string, value: unknown, storage: TStorageLike | null): void {
  try {
    storage?.setItem(key, JSON.stringify(value));
  } catch {
    // nothing to keep it in
  }
}

/**
 * The stored value when it is there and passes its schema, else null. A stored value makes the app
 * load the schemas before its first render (main.tsx), and an upload in progress has loaded them.
 */
function readJson<T>(
  key: string,
  schemaOf: (schemas: TSchemas) => { safeParse(value: unknown): { success: true; data: T } | { success: false } },
  storage: TStorageLike | null,
): T | null {
  try {
    const raw = storage?.getItem(key);
    if (!raw) return null;
    const schemas = loadedSchemas();
    if (!schemas) return null;
    const parsed = schemaOf(schemas).safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null; // damaged or unreadable: as if nothing were stored
  }
}

function removeKey(key: string, storage: TStorageLike | null): void {
  try {
    storage?.removeItem(key);
  } catch {
    // nothing to clean up
  }
}

export function saveResumableSession(session: TResumableSession, storage: TStorageLike | null = defaultStorage()): void {
  writeJson(RESUME_STORAGE_KEY, session, storage);
}

export function readResumableSession(storage: TStorageLike | null = defaultStorage()): TResumableSession | null {
  return readJson(RESUME_STORAGE_KEY, (schemas) => schemas.ZResumableUploadSchema, storage);
}

/** The stored session for these files, sent with this form, when it is recent enough. */
export function findResumableSession(
  files: readonly TFileFingerprint[],
  draftHash: string,
  now: number,
  storage: TStorageLike | null = defaultStorage(),
): TResumableSession | null {
  const session = readResumableSession(storage);
  if (!session) return null;
  if (now - session.createdAt > RESUME_MAX_AGE_MS) return null;
  if (session.draftHash !== draftHash || !isSameFileList(session.files, files)) return null;
  return session;
}

export function clearResumableSession(storage: TStorageLike | null = defaultStorage()): void {
  removeKey(RESUME_STORAGE_KEY, storage);
}

export const DRAFT_STORAGE_KEY = 'dropsite:upload-draft';

export function saveUploadDraft(draft: TUploadDraft, storage: TStorageLike | null = defaultStorage()): void {
  writeJson(DRAFT_STORAGE_KEY, draft, storage);
}

export function clearUploadDraft(storage: TStorageLike | null = defaultStorage()): void {
  removeKey(DRAFT_STORAGE_KEY, storage);
}

/**
 * An upload that stopped before it finished and can go on: a recent session the server may still
 * hold, with the form it was sent with. Null when there is none (or either half is missing).
 */
export function findInterruptedUpload(now: number, storage: TStorageLike | null = defaultStorage()): TUploadDraft | null {
  const session = readResumableSession(storage);
  if (!session || now - session.createdAt > RESUME_MAX_AGE_MS) return null;
  const draft = readJson(DRAFT_STORAGE_KEY, (schemas) => schemas.ZUploadDraftSchema, storage);
  if (!draft || !isSameFileList(draft.files, session.files)) return null;
  return draft;
}

/** Forgets an interrupted upload (the creator chose to start over); the server expires its session. */
export function forgetInterruptedUpload(storage: TStorageLike | null = defaultStorage()): void {
  clearResumableSession(storage);
  clearUploadDraft(storage);
}
