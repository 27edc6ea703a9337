/** /dashboard (spec 2 'Creator dashboard'): the signed-in creator's sites, and the sites this browser may claim. */
import { useCallback, useEffect, useState } from 'react';
import type { TCreatorProject, TCreatorPublic } from '@dropsite/shared';
import { PlusIcon } from '../../components/icons.tsx';
import { SiteFooter } from '../../components/site-footer.tsx';
import { SiteHeader } from '../../components/site-header.tsx';
import { fetchMyProjects } from '../../dashboard-api/dashboard-api.ts';

import { PlanStrip } from '../billing/plan-strip.tsx';
import { AccessGuard } from './access-guard.tsx';
import { ClaimBanner } from './claim-banner.tsx';
import { ProjectCard } from './project-card.tsx';
import { plural } from './project-insights.ts';
import './dashboard.css';

export function DashboardPage() {
  useEffect(() => {
    document.title = 'Dashboard · Dropsite';
  }, []);
  return (
    <>
      <SiteHeader isLandingPage={false} />
      <AccessGuard returnTo="/dashboard">{(creator) => <CreatorDashboard creator={creator} />}</AccessGuard>
      <SiteFooter />
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

  const onClaimed = (claimed: number) => {
    setNotice(claimed > 0 ? `${plural(claimed, 'project')} moved to your dashboard.` : 'These projects were already claimed.');
    void load();
  };

  const name = creator.name.trim() || creator.email;
  const count = state.status === 'ready' ? state.projects.length : null;

  return (
    <main id="main" className="dash container">
      <div className="dash__head">
        <div>
          <h1 className="dash__greeting">Welcome back, {name}</h1>
          <p className="dash__count" aria-live="polite">
            {count === null ? <span className="dash-skeleton dash-skeleton--text" /> : plural(count, 'project')}
          </p>
        </div>
        <a className="button button--primary button--large" href="/">
          <PlusIcon size={18} />
          Create New Project
        </a>
      </div>
      <PlanStrip />
      <ClaimBanner onClaimed={onClaimed} />
      <p className="dash-notice" role="status">
        {notice}
      </p>
      {state.status === 'loading' && (
        <ul role="list" className="dash-grid" aria-busy="true" aria-label="Loading your projects">
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
          <p>Your projects could not be loaded.</p>
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
          <div className="dash-empty">
            <h2>No projects yet</h2>
            <p>Drop your files on the home page: your sites and what visitors do with them will show here.</p>
            <a className="button button--primary" href="/">
              <PlusIcon size={18} />
              Create New Project
            </a>
          </div>
        ) : (
          <ul role="list" className="dash-grid">
            {state.projects.map((project) => (
              <ProjectCard key={project.id} project={project} />
            ))}
          </ul>
        ))}
    </main>
  );
}
