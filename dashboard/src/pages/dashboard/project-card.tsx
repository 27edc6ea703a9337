/** One site on the creator's dashboard (spec 2 'Creator dashboard'): its counts, and its analytics on demand. */
import { useId, useState } from 'react';
import { AlertIcon, CheckIcon, HeartIcon, ImageIcon, LockIcon, MessageIcon, EyeIcon, ChevronDownIcon, ClockIcon, PendingIcon } from '../../ui/icons.tsx';
import { ViewSiteLink } from '../../ui/view-site-link.tsx';
import { projectPagePath, type TCreatorProject } from '@dropsite/shared';
import { AnalyticsPanel } from './analytics-panel.tsx';
import { useLiveActivity } from './live-activity.ts';
import { expiryLabel, formatDate } from './project-insights.ts';

const STATUS_LABELS: Record<TCreatorProject['status'], string | null> = { live: null, building: 'Building…', failed: 'Build failed' };

/** `showPublisher`: in a team workspace each card says who published the site. */
export function ProjectCard({ project, showPublisher = false }: { project: TCreatorProject; showPublisher?: boolean }) {
  const [isAnalyticsOpen, setAnalyticsOpen] = useState(false);
  // A cover that cannot be read (an expired site's files already purged) falls back to the placeholder.
  const [isCoverBroken, setCoverBroken] = useState(false);
  const panelId = useId();
  const titleId = useId();
  const counts = [
    { label: 'Favourites', value: project.favorites_count, icon: <HeartIcon size={16} /> },
    { label: 'Comments', value: project.comments_count, icon: <MessageIcon size={16} /> },
    { label: 'Views', value: project.views_count, icon: <EyeIcon size={16} /> },
    { label: 'Approved', value: project.approved_count, icon: <CheckIcon size={16} /> },
    { label: 'Changes Requested', value: project.changes_requested_count, icon: <AlertIcon size={16} /> },
    { label: 'Pending', value: project.unreviewed_files_count, icon: <PendingIcon size={16} /> },
  ];
  const status = STATUS_LABELS[project.status];
  const expiry = expiryLabel(project, Date.now());

  return (
    <li className="dash-card" aria-labelledby={titleId} data-expanded={isAnalyticsOpen ? '' : undefined}>
      <div className="dash-card__media">
        {project.thumbnail_url && !isCoverBroken ? (
          <img src={project.thumbnail_url} alt="" width={300} height={188} loading="lazy" decoding="async" onError={() => setCoverBroken(true)} />
        ) : (
          <ImageIcon size={28} className="dash-card__placeholder" />
        )}
        {status && (
          <span className="dash-card__status" data-status={project.status}>
            {status}
          </span>
        )}
        {(project.has_password || expiry) && (
          <ul role="list" className="dash-card__badges" aria-label="Access">
            {project.has_password && (
              <li className="dash-badge" data-testid="card-badge-password">
                <LockIcon size={14} />
                Password
              </li>
            )}
            {expiry && (
              <li className="dash-badge" data-testid="card-badge-expiry" data-expired={expiry === 'Expired' ? '' : undefined}>
                <ClockIcon size={14} />
                {expiry}
              </li>
            )}
          </ul>
        )}
      </div>
      <div className="dash-card__body">
        <h2 id={titleId} className="dash-card__title">
          {project.title}
        </h2>
        <p className="dash-card__date">
          Created <time dateTime={project.created_at}>{formatDate(project.created_at)}</time>
          {showPublisher && project.publishedBy && <> by {project.publishedBy.name}</>}
        </p>
        {project.description && <p className="dash-card__description">{project.description}</p>}
        <ul role="list" className="dash-counts">
          {counts.map((count) => (
            <li key={count.label} className="dash-counts__item">
              {count.icon}
              <span className="dash-counts__value">{count.value.toLocaleString('en')}</span>
              <span className="dash-counts__label">{count.label}</span>
            </li>
          ))}
        </ul>
        <div className="dash-card__actions">
          <a className="button button--primary" href={projectPagePath(project.id)}>
            View Details
          </a>
          <button type="button" className="button button--secondary" aria-expanded={isAnalyticsOpen} aria-controls={panelId} onClick={() => setAnalyticsOpen((open) => !open)}>
            {isAnalyticsOpen ? 'Hide Analytics' : 'Show Analytics'}
            <ChevronDownIcon size={16} className="dash-chevron" data-open={isAnalyticsOpen ? '' : undefined} />
          </button>
          <ViewSiteLink className="button button--secondary" href={project.url} />
        </div>
      </div>
      <div id={panelId} className="dash-card__analytics" hidden={!isAnalyticsOpen}>
        {isAnalyticsOpen && <LiveAnalyticsPanel projectId={project.id} title={project.title} />}
      </div>
    </li>
  );
}

function LiveAnalyticsPanel({ projectId, title }: { projectId: string; title: string }) {
  const { revision } = useLiveActivity(projectId);
  return <AnalyticsPanel projectId={projectId} revision={revision} heading={`Analytics of ${title}`} />;
}
