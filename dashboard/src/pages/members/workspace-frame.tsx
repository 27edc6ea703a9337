/**
 * The frame of the workspace pages (members, audit log): the header and footer, the sign-in check,
 * and the current workspace once it is known, with a loading and a failed state of their own.
 */
import { useEffect, type ReactNode } from 'react';
import type { TCreatorPublic, TWorkspaceSummary } from '@dropsite/shared';
import { AccessGuard } from '../../auth/access-guard.tsx';
import { SiteFooter } from '../../chrome/site-footer.tsx';
import { SiteHeader } from '../../chrome/site-header.tsx';
import { DashboardLoading } from '../../ui/dashboard-loading.tsx';
import { PendingToast } from '../../ui/toast.tsx';
import { currentWorkspaceOf, getWorkspaceStore, useWorkspaces } from '../../workspaces/workspace-store.ts';
import '../dashboard/dashboard.css';

interface TWorkspaceFrameProps {
  title: string;
  returnTo: string;
  children: (workspace: TWorkspaceSummary, creator: TCreatorPublic) => ReactNode;
}

export function WorkspaceFrame({ title, returnTo, children }: TWorkspaceFrameProps) {
  useEffect(() => {
    document.title = `${title} · Dropsite`;
  }, [title]);
  return (
    <>
      <SiteHeader isLandingPage={false} />
      <AccessGuard returnTo={returnTo}>{(creator) => <CurrentWorkspace creator={creator}>{children}</CurrentWorkspace>}</AccessGuard>
      <SiteFooter />
      <PendingToast />
    </>
  );
}

function CurrentWorkspace({ creator, children }: { creator: TCreatorPublic; children: TWorkspaceFrameProps['children'] }) {
  const state = useWorkspaces();
  if (state.status === 'loading')
    return (
      <main id="main" className="dash container" aria-busy="true">
        <DashboardLoading label="Loading your workspace…" />
      </main>
    );
  const current = state.status === 'ready' ? currentWorkspaceOf(state.list) : null;
  if (!current)
    return (
      <main id="main" className="dash container">
        <div className="dash-inline-error" role="alert">
          <p>Your workspaces could not be loaded.</p>
          <button type="button" className="button button--secondary" onClick={() => void getWorkspaceStore().refresh()}>
            Retry
          </button>
        </div>
      </main>
    );
  return children(current, creator);
}
