/**
 * Who is signed in, asked once per page load (GET /api/auth/session) and shared by the header,
 * the pages and the engagement loop. Navigation is by full page load, so a sign-in or sign-out
 * reloads the page rather than updating this store in place.
 */
import { useSyncExternalStore } from 'react';
import type { TCreatorPublic } from '@dropsite/shared';
import { authApi } from './auth-api.ts';

export type TSessionState =
  | { status: 'loading'; creator: null }
  | { status: 'signed-in'; creator: TCreatorPublic }
  | { status: 'signed-out'; creator: null }
  /** The server could not be asked: pages show what they show to a signed-out visitor, without redirecting. */
  | { status: 'error'; creator: null };

export interface TSessionStore {
  getSnapshot(): TSessionState;
  subscribe(listener: () => void): () => void;
  /** Asks the server again (after a name change, say); the first subscriber asks on its own. */
  refresh(): Promise<void>;
}

export function createSessionStore(fetchSession: () => Promise<TCreatorPublic | null>): TSessionStore {
  let snapshot: TSessionState = { status: 'loading', creator: null };
  let asked: Promise<void> | null = null;
  const listeners = new Set<() => void>();
  const publish = (next: TSessionState) => {
    snapshot = next;
    for (const listener of listeners) listener();
  };
  const ask = async () => {
    try {
      const creator = await fetchSession();
      publish(creator ? { status: 'signed-in', creator } : { status: 'signed-out', creator: null });
    } catch {
      publish({ status: 'error', creator: null });
    }
  };
  return {
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      asked ??= ask();
      return () => listeners.delete(listener);
    },
    refresh() {
      asked = ask();
      return asked;
    },
  };
}

let sessionStore: TSessionStore | null = null;

export function getSessionStore(): TSessionStore {
  sessionStore ??= createSessionStore(authApi.fetchSession);
  return sessionStore;
}

/** The signed-in creator of this page load: `status` is 'loading' until the server answered. */
export function useSession(): TSessionState {
  const store = getSessionStore();
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}
