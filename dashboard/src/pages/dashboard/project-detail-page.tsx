/**
 * /dashboard/projects/{id} (spec 2 'Project detail view'): the header, the summary tiles, and the
 * Overview, Files and Engagement tabs; new engagement shows without a reload.
 */
import { useCallback, useEffect, useState } from 'react';
import { SiteFooter } from '../../chrome/site-footer.tsx';
import { SiteHeader } from '../../chrome/site-header.tsx';
import { ViewSiteLink } from '../../ui/view-site-link.tsx';
import { ArrowLeftIcon, DownloadIcon } from '../../ui/icons.tsx';
import { engagementCsvPath, fetchProjectDetails } from '../../dashboard-api/dashboard-api.ts';
import { APP_PATHS, projectPagePath, type TProjectDetails } from '@dropsite/shared';
import { AccessGuard } from '../../auth/access-guard.tsx';
import { AnalyticsPanel } from './analytics-panel.tsx';
import { FileList } from './file-list.tsx';
import { useLiveActivity } from './live-activity.ts';
import { averageInteractionsPerFile, formatDate, plural, topEngagedFiles, viewsToFavoritesConversion } from './project-insights.ts';
import { ManageSite } from './manage-site/index.tsx';
import { Tabs } from './tabs.tsx';
import { BackToSites } from './back-to-sites.tsx';
import { useWorkspacePermissions } from '../../workspaces/workspace-store.ts';
import '../../ui/spread-row.css';
import './dashboard.css';

/** Spec 8. */
export const DETAILS_FAILED_MESSAGE = 'Failed to load site details';

export function ProjectDetailPage({ projectId }: { projectId: string }) {
  return (
    <>
      <SiteHeader isLandingPage={false} />
      <AccessGuard returnTo={projectPagePath(projectId)}>{() => <ProjectDetail projectId={projectId} />}</AccessGuard>
      <SiteFooter />
    </>
  );
}

type TDetailsState = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; project: TProjectDetails };

function goBack() {
  // Back to where the creator came from when that was us, else to the dashboard.
  if (document.referrer.startsWith(window.location.origin) && window.history.length > 1) window.history.back();
  else window.location.assign(APP_PATHS.dashboard);
}

function ProjectDetail({ projectId }: { projectId: string }) {
  const [state, setState] = useState<TDetailsState>({ status: 'loading' });
  const live = useLiveActivity(projectId);
  const [ownRevision, setOwnRevision] = useState(0);
  const revision = live.revision + ownRevision;
  // What the role may do with the site (null while it loads: nothing that changes it is offered yet).
  const can = useWorkspacePermissions();

  const load = useCallback(async () => {
    try {
      const project = await fetchProjectDetails(projectId);
      setState({ status: 'ready', project });
    } catch {
      // A refetch that fails keeps what is shown; only a first load that fails shows the failure.
      setState((previous) => (previous.status === 'ready' ? previous : { status: 'failed' }));
    }
  }, [projectId]);

  useEffect(() => {
    void revision;
    void load();
  }, [load, revision]);

  useEffect(() => {
    document.title = state.status === 'ready' ? `${state.project.title} · Dashboard · Dropsite` : 'Site · Dashboard · Dropsite';
  }, [state]);

  if (state.status === 'failed') {
    return (
      <main id="main" className="dash container">
        <div className="dash-failed" role="alert">
          <h1>{DETAILS_FAILED_MESSAGE}</h1>
          <p>The site may have been deleted, or it belongs to another account.</p>
          <button type="button" className="button button--primary" onClick={goBack}>
            <ArrowLeftIcon size={18} />
            Go Back
          </button>
        </div>
      </main>
    );
  }

  if (state.status === 'loading') {
    return (
      <main id="main" className="dash container" aria-busy="true">
        <div className="dash-detail__head spread-row">
          <div className="dash-skeleton dash-skeleton--heading" />
          <div className="dash-skeleton dash-skeleton--lines" />
        </div>
        <div className="dash-tiles" aria-hidden="true">
          {[0, 1, 2, 3].map((key) => (
            <div key={key} className="dash-tile dash-skeleton" />
          ))}
        </div>
      </main>
    );
  }

  const { project } = state;
  const { totals } = project;
  // The site's figures, each shown once: these tiles, then the approvals and the chart in the Overview.
  const tiles = [
    { label: 'Views', value: totals.totalViews },
    { label: 'Unique visitors', value: totals.uniqueUsers },
    { label: 'Downloads', value: totals.totalDownloads },
    { label: 'Favourites', value: totals.totalFavorites },
    { label: 'Comments', value: totals.totalComments },
  ];
  const latestNews = live.latest[0];

  return (
    <main id="main" className="dash container">
      <BackToSites />
      <header className="dash-detail__head spread-row">
        <div className="dash-detail__text">
          <h1 className="dash-detail__title">{project.title}</h1>
          {project.description && <p className="dash-detail__description">{project.description}</p>}
          <p className="dash-detail__meta">
            <span>
              Created <time dateTime={project.created_at}>{formatDate(project.created_at)}</time>
            </span>
            <span>{plural(totals.totalFiles, 'file')}</span>
          </p>
        </div>
        <div className="dash-detail__actions">
          <a className="button button--secondary" href={engagementCsvPath(projectId)} download>
            <DownloadIcon size={16} />
            Download CSV
          </a>
          <ViewSiteLink className="button button--primary" href={project.url} />
        </div>
      </header>
      <p className="dash-live" role="status">
        {latestNews ? `New: ${latestNews.details}` : ''}
      </p>
      <dl className="dash-tiles dash-tiles--five">
        {tiles.map((tile) => (
          <div key={tile.label} className="dash-tile" data-testid="summary-tile">
            <dt>{tile.label}</dt>
            <dd>{tile.value.toLocaleString('en')}</dd>
          </div>
        ))}
      </dl>
      <Tabs
        label="Site"
        initialId={window.location.hash.slice(1) || undefined}
        tabs={[
          { id: 'overview', label: 'Overview', render: () => <OverviewTab project={project} projectId={projectId} revision={revision} /> },
          {
            id: 'files',
            label: 'Files',
            render: () => (
              <FileList projectId={projectId} files={project.files} revision={revision} onReplied={can?.('comments.reply') ? () => setOwnRevision((n) => n + 1) : null} />
            ),
          },
          { id: 'engagement', label: 'Engagement', render: () => <EngagementTab project={project} /> },
          // Editing and deleting the site: not offered to a role that may only read it.
          ...(can?.('sites.edit')
            ? [{ id: 'settings', label: 'Settings', render: () => <ManageSite projectId={projectId} onChanged={() => setOwnRevision((n) => n + 1)} /> }]
            : []),
        ]}
      />
    </main>
  );
}

function OverviewTab({ project, projectId, revision }: { project: TProjectDetails; projectId: string; revision: number }) {
  const { totals } = project;
  return (
    <div className="dash-overview">
      <div className="dash-overview__grid">
        <section className="dash-box" aria-labelledby="overview-approvals">
          <h2 id="overview-approvals" className="dash-box__title">
            Approval status
          </h2>
          <ul role="list" className="dash-approvals dash-approvals--large">
            <li className="dash-approvals__item" data-tone="approved">
              <span className="dash-approvals__count">{totals.totalApprovals.approved}</span> Approved
            </li>
            <li className="dash-approvals__item" data-tone="rejected">
              <span className="dash-approvals__count">{totals.totalApprovals.rejected}</span> Changes Requested
            </li>
            <li className="dash-approvals__item" data-tone="pending">
              <span className="dash-approvals__count">{totals.totalApprovals.pending}</span> Pending
            </li>
          </ul>
          <p className="dash-muted dash-approvals__note">
            Pending counts the files no one has approved or asked changes of yet: {totals.totalApprovals.pending.toLocaleString('en')} of {plural(totals.totalFiles, 'file')}.
          </p>
        </section>
      </div>
      <AnalyticsPanel projectId={projectId} revision={revision} heading="Site analytics" hasCsvLink={false} hasTotals={false} />
    </div>
  );
}

function EngagementTab({ project }: { project: TProjectDetails }) {
  const top = topEngagedFiles(project.files);
  return (
    <div className="dash-engagement">
      <dl className="dash-tiles dash-tiles--two">
        <div className="dash-tile">
          <dt>Average interactions per file</dt>
          <dd>{averageInteractionsPerFile(project).toLocaleString('en')}</dd>
        </div>
        <div className="dash-tile">
          <dt>Views to favourites</dt>
          <dd>{viewsToFavoritesConversion(project).toLocaleString('en')}%</dd>
        </div>
      </dl>
      <section className="dash-box" aria-labelledby="engagement-top">
        <h2 id="engagement-top" className="dash-box__title">
          Most engaged files
        </h2>
        {top.length === 0 ? (
          <p className="dash-muted">No file has been viewed, favourited or commented on yet.</p>
        ) : (
          <ol className="dash-top">
            {top.map((entry) => (
              <li key={entry.file.id} className="dash-top__item">
                <span className="dash-top__name">{entry.file.name}</span>
                <span className="dash-top__counts">
                  {plural(entry.favorites, 'favourite')} · {plural(entry.comments, 'comment')} · {plural(entry.views, 'view')}
                </span>
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}
