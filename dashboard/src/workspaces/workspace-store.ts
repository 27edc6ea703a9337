/**
 * The signed-in creator's workspaces and the one the dashboard shows, asked once per page load and
 * shared by the header's switcher and the pages. Switching asks the server first (PUT
 * /api/workspaces/current); once it answered, the store holds the new list and tells the pages that
 * listen, which load their data (sites, billing, members) again for the new workspace.
 */
import { useEffect, useRef, useSyncExternalStore } from 'react';
import type { TSendRequest } from '@dropsite/shared/browser/api-client';
import type { TWorkspacePermission, TWorkspaceList, TWorkspaceSummary } from '@dropsite/shared';
import { createWorkspace, fetchWorkspaces, switchWorkspace } from './workspaces-api.ts';

export type TWorkspacesState = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; list: TWorkspaceList };

export interface TWorkspaceStore {
  getSnapshot(): TWorkspacesState;
  subscribe(listener: () => void): () => void;
  /** Asks the server again (after a rename, say). */
  refresh(): Promise<void>;
  /** Switches the dashboard to `workspaceId`; the pages listening with onSwitch load again once the server agreed. */
  switchTo(workspaceId: string): Promise<void>;
  /** Makes a workspace and switches to it; answers it. */
  create(name: string): Promise<TWorkspaceSummary>;
  /** Called after each switch, with the workspace now current. */
  onSwitch(listener: (current: TWorkspaceSummary) => void): () => void;
}

/** The workspace the dashboard shows, from the list (null when the list does not name it). */
export function currentWorkspaceOf(list: TWorkspaceList): TWorkspaceSummary | null {
  return list.workspaces.find((workspace) => workspace.id === list.currentWorkspaceId) ?? null;
}

export function createWorkspaceStore(send?: TSendRequest): TWorkspaceStore {
  let snapshot: TWorkspacesState = { status: 'loading' };
  let asked: Promise<void> | null = null;
  const listeners = new Set<() => void>();
  const switchListeners = new Set<(current: TWorkspaceSummary) => void>();
  const publish = (next: TWorkspacesState) => {
    snapshot = next;
    for (const listener of listeners) listener();
  };
  const ask = async () => {
    try {
      publish({ status: 'ready', list: await fetchWorkspaces(send) });
    } catch {
      // A list already shown stays; the first load's failure is shown.
      if (snapshot.status !== 'ready') publish({ status: 'failed' });
    }
  };
  const switched = (list: TWorkspaceList) => {
    publish({ status: 'ready', list });
    const current = currentWorkspaceOf(list);
    if (current) for (const listener of switchListeners) listener(current);
  };
  const switchTo = async (workspaceId: string) => {
    switched(await switchWorkspace(workspaceId, send));
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
    switchTo,
    async create(name) {
      const created = await createWorkspace(name, send);
      await switchTo(created.id);
      return created;
    },
    onSwitch(listener) {
      switchListeners.add(listener);
      return () => switchListeners.delete(listener);
    },
  };
}

let workspaceStore: TWorkspaceStore | null = null;

export function getWorkspaceStore(): TWorkspaceStore {
  workspaceStore ??= createWorkspaceStore();
  return workspaceStore;
}

/** The caller's workspaces; only for a signed-in creator (the first use asks the server). */
export function useWorkspaces(): TWorkspacesState {
  const store = getWorkspaceStore();
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}

/**
 * What the current workspace lets the caller do: null while the list loads. When the list could not
 * be loaded every permission is granted here: the server still refuses what the role may not do,
 * and hiding the whole dashboard because of one failed read would be worse.
 */
export function useWorkspacePermissions(): ((permission: TWorkspacePermission) => boolean) | null {
  const state = useWorkspaces();
  if (state.status === 'loading') return null;
  if (state.status === 'failed') return () => true;
  return permissionCheck(currentWorkspaceOf(state.list));
}

/** Whether the workspace's `permissions` (from GET /api/workspaces) include each permission asked. */
export function permissionCheck(workspace: TWorkspaceSummary | null): (permission: TWorkspacePermission) => boolean {
  return (permission) => workspace?.permissions.includes(permission) ?? false;
}

/** Runs `onSwitched` after each switch of workspace (a page loads its data again). */
export function useWorkspaceSwitch(onSwitched: (current: TWorkspaceSummary) => void): void {
  const latest = useRef(onSwitched);
  latest.current = onSwitched;
  useEffect(() => getWorkspaceStore().onSwitch((current) => latest.current(current)), []);
}
