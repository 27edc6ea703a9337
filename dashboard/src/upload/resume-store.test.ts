import { beforeAll, describe, expect, it } from 'vitest';
import { loadSchemas } from '../schemas/lazy-schemas.ts';
import { DEFAULT_SITE_SETTINGS, type TUploadDraft } from '@dropsite/shared';
import { createMemoryStorage } from '../engagement/storage-keys.ts';
import {
  DRAFT_STORAGE_KEY,
  RESUME_MAX_AGE_MS,
  findInterruptedUpload,
  forgetInterruptedUpload,
  saveResumableSession,
  saveUploadDraft,
  type TResumableSession,
} from './resume-store.ts';

const NOW = Date.UTC(2026, 10, 22, 12);
const film = { name: 'brand-film_master.mov', size: 125_829_120, lastModified: NOW - 86_400_000 };

const session: TResumableSession = {
  protocol: 'direct-chunked',
  sessionId: 'session-1',
  projectSlug: 'k3v9q2xw7m',
  files: [{ ...film, fileId: 'file-1', chunkSize: 10_485_760, totalChunks: 12 }],
  draftHash: 'hash',
  createdAt: NOW - 60_000,
};

const draft: TUploadDraft = {
  files: [film],
  form: { title: 'Brand Film Master', description: 'Master file for review', authorName: 'Ann', expiryDate: '', template: 'universal', settings: DEFAULT_SITE_SETTINGS },
  hadPassword: true,
  savedAt: NOW - 61_000,
};

describe('interrupted uploads after a reload', () => {
  // main.tsx loads the schemas before the first render whenever such a record is stored.
  beforeAll(loadSchemas);

  it('offers the form of a recent session of the same files, and never a password', () => {
    const storage = createMemoryStorage();
    saveResumableSession(session, storage);
    saveUploadDraft(draft, storage);
    const found = findInterruptedUpload(NOW, storage);
    expect(found?.form.title).toBe('Brand Film Master');
    expect(found?.hadPassword).toBe(true);
    expect(storage.getItem(DRAFT_STORAGE_KEY)).not.toMatch(/password"\s*:\s*"/);
  });

  it('offers nothing without the session, for other files, when too old, or when the draft is damaged', () => {
    const storage = createMemoryStorage();
    saveUploadDraft(draft, storage);
    expect(findInterruptedUpload(NOW, storage)).toBeNull();

    saveResumableSession({ ...session, files: [{ ...session.files[0]!, size: film.size - 1 }] }, storage);
    expect(findInterruptedUpload(NOW, storage)).toBeNull();

    saveResumableSession(session, storage);
    expect(findInterruptedUpload(session.createdAt + RESUME_MAX_AGE_MS + 1, storage)).toBeNull();

    storage.setItem(DRAFT_STORAGE_KEY, '{"files":');
    expect(findInterruptedUpload(NOW, storage)).toBeNull();
  });

  it('forgets both halves when the creator starts over', () => {
    const storage = createMemoryStorage();
    saveResumableSession(session, storage);
    saveUploadDraft(draft, storage);
    forgetInterruptedUpload(storage);
    expect(findInterruptedUpload(NOW, storage)).toBeNull();
    expect(storage.getItem(DRAFT_STORAGE_KEY)).toBeNull();
  });
});
