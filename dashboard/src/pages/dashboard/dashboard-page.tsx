/** /dashboard (spec 2 'Creator dashboard'): the signed-in creator's sites, and the sites this browser may claim. */
import { useCallback, useEffect, useState } from 'react';
import { APP_PATHS, type TCreatorProject, type TCreatorPublic } from '@dropsite/shared';
import { PlusIcon } from '../../ui/icons.tsx';
import { SiteFooter } from '../../chrome/site-footer.tsx';
import { SiteHeader } from '../../chrome/site-header.tsx';
import { PendingToast } from '../../ui/toast.tsx';
import { fetchMyProjects } from '../../dashboard-api/dashboard-api.ts';

import { PlanStrip } from '../../billing/plan-strip.tsx';
import { currentWorkspaceOf, useWorkspacePermissions, useWorkspaces, useWorkspaceSwitch } from '../../workspaces/workspace-store.ts';
import { AccessGuard } from '../../auth/access-guard.tsx';
import { ClaimBanner, useClaimOffer } from './claim-banner.tsx';
import { ProjectCard } from './project-card.tsx';
import { greetingFor, plural } from './project-insights.ts';
import './dashboard.css';

export function DashboardPage() {
  useEffect(() => {
    document.title = 'Dashboard · Dropsite';
  }, []);
  return (
    <>
      <SiteHeader isLandingPage={false} />
      <AccessGuard returnTo={APP_PATHS.dashboard}>{(creator) => <CreatorDashboard creator={creator} />}</AccessGuard>
      <SiteFooter />
      <PendingToast />
    </>
  );
}

type TProjectsState = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; projects: TCreatorProject[] };

function CreatorDashboard({ creator }: { creator: TCreatorPublic }) {
  const [state, setState] = useState<TProjectsState>({ status: 'loading' });
  const [notice, setNotice] = useState('');

  const load = useCallback(async () => {
    try {
      const answer = await fetchMyProjects();
      setState({ status: 'ready', projects: answer.projects });
    } catch {
      setState((previous) => (previous.status === 'ready' ? previous : { status: 'failed' }));
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  // The sites are the current workspace's: a switch in the header lists the new one's.
  useWorkspaceSwitch(() => {
    setState({ status: 'loading' });
    setNotice('');
    void load();
  });
  // What the role may not do is not offered (the server refuses it regardless); nothing until the role is known.
  const canCreate = useWorkspacePermissions()?.('sites.create') ?? false;
  const workspaces = useWorkspaces();
  const isTeamWorkspace = workspaces.status === 'ready' && currentWorkspaceOf(workspaces.list)?.personal === false;

  const offer = useClaimOffer();
  // Claiming moves sites into the workspace, which creating sites allows.
  const claimOffer = canCreate ? offer : null;
  const onClaimed = (claimed: number) => {
    setNotice(claimed > 0 ? `${plural(claimed, 'site')} moved to your dashboard.` : 'These sites were already claimed.');
    void load();
  };

  const name = creator.name.trim() || creator.email;
  const count = state.status === 'ready' ? state.projects.length : null;
  // Read once: the greeting does not change while the page is open.
  const [greeting] = useState(() => greetingFor(name, creator.createdAt, Date.now()));

  return (
    <main id="main" className="dash container">
      <div className="dash__head">
        <div>
          <h1 className="dash__greeting">{greeting}</h1>
          <p className="dash__count" aria-live="polite">
            {count === null ? <span className="dash-skeleton dash-skeleton--text" /> : plural(count, 'site')}
          </p>
        </div>
        {canCreate && (
          <a className="button button--primary button--large" href={APP_PATHS['new-site']}>
            <PlusIcon size={18} />
            Create New Site
          </a>
        )}
      </div>
      <PlanStrip />
      <ClaimBanner offer={claimOffer} onClaimed={onClaimed} />
      <p className="dash-notice" role="status">
        {notice}
      </p>
      {state.status === 'loading' && (
        <ul role="list" className="dash-grid" aria-busy="true" aria-label="Loading your sites">
          {[0, 1, 2].map((key) => (
            <li key={key} className="dash-card dash-card--skeleton" aria-hidden="true">
              <div className="dash-card__media dash-skeleton" />
              <div className="dash-card__body">
                <div className="dash-skeleton dash-skeleton--title" />
                <div className="dash-skeleton dash-skeleton--lines" />
              </div>
            </li>
          ))}
        </ul>
      )}
      {state.status === 'failed' && (
        <div className="dash-inline-error" role="alert">
          <p>Your sites could not be loaded.</p>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => {
              setState({ status: 'loading' });
              void load();
            }}
          >
            Retry
          </button>
        </div>
      )}
      {state.status === 'ready' &&
        (state.projects.length === 0 ? (
          // With sites waiting to be claimed above, the banner is what to do next: no second, contradicting empty state.
          claimOffer === null && (
            <div className="dash-empty">
              <h2>No sites yet</h2>
              {canCreate ? (
                <>
                  <p>Drop your files to publish your first site: it and what visitors do with it will show here.</p>
                  <a className="button button--primary" href={APP_PATHS['new-site']}>
                    <PlusIcon size={18} />
                    Create New Site
                  </a>
                </>
              ) : (
                <p>When the workspace’s editors publish a site, it and what visitors do with it will show here.</p>
              )}
            </div>
          )
        ) : (
          <ul role="list" className="dash-grid">
            {state.projects.map((project) => (
              <ProjectCard key={project.id} project={project} showPublisher={isTeamWorkspace} />
            ))}
          </ul>
        ))}
    </main>
  );
}
