/**
 * The visitor's own favourites and approvals for the site, fetched once per page and shared by
 * every control on it (module state: all islands on a page share this module instance). Changes
 * land here only after the server said OK, so every control showing a file agrees.
 */
import type { TApprovalStatus, TVisitorEngagement, TVisitorProfile } from './engagement-api.ts';

export interface TVisitorSnapshot {
  status: 'idle' | 'loading' | 'ready' | 'error';
  /** How the site names this visitor: the name they gave, else 'User 9fQk'; empty until loaded. */
  visitorName: string;
  /** Whether the visitor gave a name (they are asked before their first favourite, comment or review). */
  hasName: boolean;
  /** The address they chose to show the creator, or null. */
  visitorEmail: string | null;
  favorites: ReadonlySet<string>;
  approvals: ReadonlyMap<string, TApprovalStatus>;
  commentCounts: ReadonlyMap<string, number>;
}

export const EMPTY_VISITOR_SNAPSHOT: TVisitorSnapshot = {
  status: 'idle',
  visitorName: '',
  hasName: false,
  visitorEmail: null,
  favorites: new Set(),
  approvals: new Map(),
  commentCounts: new Map(),
};

export interface TVisitorStore {
  getSnapshot(): TVisitorSnapshot;
  subscribe(listener: () => void): () => void;
  /** Starts the one load for this page; later calls return the same promise unless it failed. */
  ensureLoaded(): Promise<void>;
  setFavorite(fileId: string, isFavorite: boolean): void;
  setApproval(fileId: string, status: TApprovalStatus): void;
  setCommentCount(fileId: string, count: number): void;
  /** The visitor named themselves (the server stored it). */
  setVisitor(profile: TVisitorProfile): void;
}

export function createVisitorStore(load: () => Promise<TVisitorEngagement>): TVisitorStore {
  let snapshot: TVisitorSnapshot = EMPTY_VISITOR_SNAPSHOT;
  let pending: Promise<void> | null = null;
  // Changes confirmed while the first load was in flight win over what that load returns.
  const confirmedFavorites = new Map<string, boolean>();
  const confirmedApprovals = new Map<string, TApprovalStatus>();
  const confirmedCounts = new Map<string, number>();
  let confirmedVisitor: TVisitorProfile | null = null;
  const listeners = new Set<() => void>();

  const publish = (next: TVisitorSnapshot) => {
    snapshot = next;
    for (const listener of listeners) listener();
  };

  return {
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    ensureLoaded() {
      if (pending) return pending;
      publish({ ...snapshot, status: 'loading' });
      pending = load().then(
        (state) => {
          const favorites = new Set(state.favorites);
          for (const [fileId, on] of confirmedFavorites) {
            if (on) favorites.add(fileId);
            else favorites.delete(fileId);
          }
          const approvals = new Map(state.approvals);
          for (const [fileId, status] of confirmedApprovals) approvals.set(fileId, status);
          const commentCounts = new Map(state.commentCounts);
          for (const [fileId, count] of confirmedCounts) commentCounts.set(fileId, count);
          const visitor = confirmedVisitor ?? state.visitor;
          publish({ status: 'ready', visitorName: visitor.name, hasName: visitor.hasName, visitorEmail: visitor.email, favorites, approvals, commentCounts });
        },
        () => {
          // A later control mounting may try again; until then each control starts from 'off'.
          pending = null;
          publish({ ...snapshot, status: 'error' });
        },
      );
      return pending;
    },
    setFavorite(fileId, isFavorite) {
      confirmedFavorites.set(fileId, isFavorite);
      const favorites = new Set(snapshot.favorites);
      if (isFavorite) favorites.add(fileId);
      else favorites.delete(fileId);
      publish({ ...snapshot, favorites });
    },
    setApproval(fileId, status) {
      confirmedApprovals.set(fileId, status);
      publish({ ...snapshot, approvals: new Map(snapshot.approvals).set(fileId, status) });
    },
    setVisitor(profile) {
      confirmedVisitor = profile;
      publish({ ...snapshot, visitorName: profile.name, hasName: profile.hasName, visitorEmail: profile.email });
    },
    setCommentCount(fileId, count) {
      confirmedCounts.set(fileId, count);
      if (snapshot.commentCounts.get(fileId) === count) return;
      publish({ ...snapshot, commentCounts: new Map(snapshot.commentCounts).set(fileId, count) });
    },
  };
}

const stores = new Map<string, TVisitorStore>();

/** The page's store for one site (a page shows one site, but keying by id keeps tests honest). */
export function getVisitorStore(projectId: string, load: (projectId: string) => Promise<TVisitorEngagement>): TVisitorStore {
  let store = stores.get(projectId);
  if (!store) {
    store = createVisitorStore(() => load(projectId));
    stores.set(projectId, store);
  }
  return store;
}
