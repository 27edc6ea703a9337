/**
 * What the dashboard knows of the anonymous creator's engagement: their session (asked of the
 * server, the token is HttpOnly), the engagement summary and their projects. One module-level
 * store, shared by the loop (triggers, teaser), the bell and anything else that wants it.
 */
import { useSyncExternalStore } from 'react';
import type { TAnonymousProject, TEngagementSummary } from '@dropsite/shared';
import { fetchAnonymousProjects, fetchAnonymousSession, fetchEngagementSummary, type TAnonymousSession } from '../dashboard-api/engagement-api.ts';
import { createNotificationCenter, type TNotificationCenter } from './notifications.ts';
import { STORAGE_KEYS, accountNotificationsKey, resolveStorage } from './storage-keys.ts';

export interface TCreatorEngagement {
  /** 'none': this browser has no anonymous session; 'error': the server could not be asked. */
  status: 'loading' | 'none' | 'ready' | 'error';
  session: TAnonymousSession | null;
  summary: TEngagementSummary | null;
  projects: TAnonymousProject[] | null;
}

export interface TCreatorEngagementStore {
  getSnapshot(): TCreatorEngagement;
  subscribe(listener: () => void): () => void;
  /** Asks again: the session (only when `withSession` or unknown), then summary and projects. */
  refresh(options?: { withSession?: boolean }): Promise<void>;
}

export interface TCreatorEngagementSources {
  fetchSession: () => Promise<TAnonymousSession | null>;
  fetchSummary: (sessionId: string) => Promise<TEngagementSummary>;
  fetchProjects: (sessionId: string) => Promise<TAnonymousProject[]>;
}

/** What is known before the first answer, and what a prerendered page and its hydration render. */
export const LOADING_CREATOR_ENGAGEMENT: TCreatorEngagement = { status: 'loading', session: null, summary: null, projects: null };
const loadingEngagement = () => LOADING_CREATOR_ENGAGEMENT;

/** The anonymous creator's engagement, read by a component (loading while prerendered and hydrated). */
export function useCreatorEngagement(): TCreatorEngagement {
  const store = getCreatorEngagementStore();
  return useSyncExternalStore(store.subscribe, store.getSnapshot, loadingEngagement);
}

export function createCreatorEngagementStore(sources: TCreatorEngagementSources): TCreatorEngagementStore {
  let snapshot: TCreatorEngagement = LOADING_CREATOR_ENGAGEMENT;
  const listeners = new Set<() => void>();
  let running: Promise<void> | null = null;

  const publish = (next: TCreatorEngagement) => {
    snapshot = next;
    for (const listener of listeners) listener();
  };

  const run = async (withSession: boolean) => {
    let session = snapshot.session;
    try {
      if (withSession || !session) session = await sources.fetchSession();
    } catch {
      publish({ ...snapshot, status: snapshot.session ? snapshot.status : 'error' });
      return;
    }
    if (!session) {
      publish({ status: 'none', session: null, summary: null, projects: null });
      return;
    }
    const sameSession = snapshot.session?.sessionId === session.sessionId;
    const [summary, projects] = await Promise.allSettled([sources.fetchSummary(session.sessionId), sources.fetchProjects(session.sessionId)]);
    publish({
      status: 'ready',
      session,
      // A failed poll keeps what we knew: the teaser should not flicker away on one lost request.
      summary: summary.status === 'fulfilled' ? summary.value : sameSession ? snapshot.summary : null,
      projects: projects.status === 'fulfilled' ? projects.value : sameSession ? snapshot.projects : null,
    });
  };

  return {
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    refresh({ withSession = false } = {}) {
      // One request chain at a time; a session refresh asked meanwhile runs right after.
      const next = (running ?? Promise.resolve()).then(() => run(withSession));
      running = next.finally(() => {
        if (running === next) running = null;
      });
      return next;
    },
  };
}

let creatorStore: TCreatorEngagementStore | null = null;
const notificationCenters = new Map<string, TNotificationCenter>();

export function getCreatorEngagementStore(): TCreatorEngagementStore {
  creatorStore ??= createCreatorEngagementStore({
    fetchSession: fetchAnonymousSession,
    fetchSummary: fetchEngagementSummary,
    fetchProjects: fetchAnonymousProjects,
  });
  return creatorStore;
}

/** The bell's list: the signed-in account's when `creatorId` is given, else this browser's anonymous creator's. */
export function getNotificationCenter(creatorId: string | null = null): TNotificationCenter {
  const key = creatorId === null ? STORAGE_KEYS.notifications : accountNotificationsKey(creatorId);
  let center = notificationCenters.get(key);
  if (!center) {
    center = createNotificationCenter(resolveStorage('local'), () => Date.now(), key);
    notificationCenters.set(key, center);
  }
  return center;
}

/** The event the upload wizard dispatches on window after a publish succeeds. */
export const PUBLISHED_EVENT = 'dropsite:published';
/** Any page may ask for the email prompt: `window.dispatchEvent(new CustomEvent(EMAIL_PROMPT_EVENT, { detail: { trigger } }))`. */
export const EMAIL_PROMPT_EVENT = 'dropsite:email-prompt';
