/**
 * Spec 2 'Analytics panel (project or file)': views, unique visitors, downloads, favourites,
 * comments, approvals (Approved, Changes Requested, Pending) and the 10 most recent activities,
 * with the chart per day; the site's panel also offers its engagement as CSV.
 */
import { lazy, Suspense, useEffect, useState } from 'react';
import type { TAnalytics } from '@dropsite/shared';
import { formatAlertTime } from '@dropsite/shared/browser/relative-time';
import { engagementCsvPath, fetchPanelAnalytics } from '../../dashboard-api/dashboard-api.ts';
import { ActivityIcon } from '../../ui/icons.tsx';

const DailyChart = lazy(() => import('./daily-chart.tsx').then((module) => ({ default: module.DailyChart })));

interface TAnalyticsPanelProps {
  projectId: string;
  /** A file's panel; the site's when absent. */
  fileId?: string | null;
  /** Bumped when new engagement arrived: the panel asks again without a skeleton. */
  revision: number;
  heading: string;
  /** The site's panel offers the CSV unless the page already does. */
  hasCsvLink?: boolean;
  /** The figures above the chart, unless the page shows them already (the site's detail page does, in its tiles). */
  hasTotals?: boolean;
}

export function AnalyticsPanel({ projectId, fileId = null, revision, heading, hasCsvLink = true, hasTotals = true }: TAnalyticsPanelProps) {
  const [analytics, setAnalytics] = useState<TAnalytics | null>(null);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    let isCurrent = true;
    fetchPanelAnalytics({ projectId, fileId }).then(
      (answer) => {
        if (!isCurrent) return;
        setAnalytics(answer);
        setFailed(false);
      },
      () => isCurrent && setFailed(true),
    );
    return () => {
      isCurrent = false;
    };
  }, [projectId, fileId, revision, attempt]);

  const stats: { label: string; value: number | undefined }[] = [
    { label: 'Views', value: analytics?.views },
    { label: 'Unique visitors', value: analytics?.uniqueVisitors },
    { label: 'Downloads', value: analytics?.downloads },
    { label: 'Favourites', value: analytics?.favorites },
    { label: 'Comments', value: analytics?.comments },
  ];
  const approvals: { label: string; value: number | undefined; tone: string }[] = [
    { label: 'Approved', value: analytics?.approvals.approved, tone: 'approved' },
    { label: 'Changes Requested', value: analytics?.approvals.rejected, tone: 'rejected' },
    { label: 'Pending', value: analytics?.approvals.pending, tone: 'pending' },
  ];
  const now = Date.now();

  return (
    <section className="dash-analytics" aria-label={heading} aria-busy={!analytics && !failed}>
      <div className="dash-analytics__head">
        <h3 className="dash-analytics__title">{heading}</h3>
        {!fileId && hasCsvLink && (
          <a className="dash-link-button" href={engagementCsvPath(projectId)} download>
            Download CSV
          </a>
        )}
      </div>
      {failed && !analytics ? (
        <div className="dash-inline-error" role="alert">
          <p>Analytics could not be loaded.</p>
          <button type="button" className="button button--secondary" onClick={() => setAttempt((n) => n + 1)}>
            Retry
          </button>
        </div>
      ) : (
        <>
          {hasTotals && (
            <dl className="dash-stats">
              {stats.map((stat) => (
                <div key={stat.label} className="dash-stats__item">
                  <dt>{stat.label}</dt>
                  <dd>{stat.value === undefined ? <span className="dash-skeleton dash-skeleton--number" /> : stat.value.toLocaleString('en')}</dd>
                </div>
              ))}
              <div className="dash-stats__item dash-stats__item--wide">
                <dt>Approvals</dt>
                <dd>
                  <ul role="list" className="dash-approvals">
                    {approvals.map((approval) => (
                      <li key={approval.label} className="dash-approvals__item" data-tone={approval.tone}>
                        <span className="dash-approvals__count">{approval.value === undefined ? '–' : approval.value.toLocaleString('en')}</span> {approval.label}
                      </li>
                    ))}
                  </ul>
                </dd>
              </div>
            </dl>
          )}
          <Suspense fallback={<div className="dash-skeleton dash-chart__skeleton" aria-hidden="true" />}>
            <DailyChart projectId={projectId} fileId={fileId} revision={revision} />
          </Suspense>
          <div className="dash-activity">
            <h4 className="dash-activity__title">Recent activity</h4>
            {!analytics ? (
              <div className="dash-skeleton dash-skeleton--lines" aria-hidden="true" />
            ) : analytics.recentActivity.length === 0 ? (
              <p className="dash-muted">No activity yet. Views, downloads, favourites, comments and approvals show here as they happen.</p>
            ) : (
              <ol role="list" className="dash-activity__list">
                {analytics.recentActivity.map((activity) => (
                  <li key={`${activity.type}-${activity.timestamp}-${activity.fileId ?? ''}-${activity.details}`} className="dash-activity__item" data-type={activity.type}>
                    <span className="dash-activity__icon ui-tile">
                      <ActivityIcon type={activity.type} />
                    </span>
                    <span className="dash-activity__details">{activity.details}</span>
                    <time className="dash-activity__time" dateTime={activity.timestamp}>
                      {formatAlertTime(Date.parse(activity.timestamp), now)}
                    </time>
                  </li>
                ))}
              </ol>
            )}
          </div>
        </>
      )}
    </section>
  );
}
