/**
 * The engagement teaser for anonymous creators (spec 2.8, 4): how many interactions their sites
 * had, the analytics behind them blurred until they sign up, and the days left of the 7-day
 * window, coloured by urgency. 'Maybe Later' hides it for good; 'Sign Up Free' opens the sign-up form and comes back here.
 */
import { useId, type ReactNode } from 'react';
import type { TAnonymousProject, TEngagementSummary } from '@dropsite/shared';
import { CloseIcon } from '../components/icons.tsx';
import '../components/close-button.css';
import { SignUpLink } from '../components/sign-up-link.tsx';
import { ClockIcon, EyeIcon, HeartIcon, LockIcon, MessageIcon, CheckIcon } from './engagement-icons.tsx';
import { formatDaysRemaining, teaserUrgency } from './teaser-rules.ts';

interface TTeaserCardProps {
  summary: TEngagementSummary;
  projects: readonly TAnonymousProject[] | null;
  onDismiss: () => void;
}

const NUMBER = new Intl.NumberFormat('en');

export function TeaserCard({ summary, projects, onDismiss }: TTeaserCardProps) {
  const titleId = useId();
  const urgency = teaserUrgency(summary.days_remaining);
  const interactions = summary.total_interactions;
  const totals = projects ? sumProjects(projects) : null;
  const kinds = [summary.has_favorites && 'favourited', summary.has_comments && 'commented on', summary.has_approvals && 'reviewed'].filter(Boolean) as string[];

  return (
    <aside className="teaser-card" aria-labelledby={titleId} data-urgency={urgency}>
      <button type="button" className="close-button teaser-card__close" aria-label="Close" onClick={onDismiss}>
        <CloseIcon size={16} />
      </button>
      <p className="teaser-card__days" data-urgency={urgency}>
        <ClockIcon size={14} />
        {formatDaysRemaining(summary.days_remaining)}
      </p>
      <h2 id={titleId} className="teaser-card__title">
        <span className="teaser-card__count">{NUMBER.format(interactions)}</span> {interactions === 1 ? 'interaction' : 'interactions'} on your sites
      </h2>
      <p className="teaser-card__text">
        {kinds.length > 0 ? `Visitors ${joinWords(kinds)} your files.` : 'Visitors are engaging with your files.'} Sign up free to see who did what, and keep it beyond{' '}
        {summary.days_remaining <= 1 ? 'today' : `the next ${summary.days_remaining} days`}.
      </p>

      {totals && (
        <div className="teaser-card__analytics">
          {/* The real figures, blurred: the detail is what signing up unlocks. */}
          <dl className="teaser-card__stats" aria-label="Analytics, available with a free account">
            <Stat icon={<EyeIcon size={14} />} label="Views" value={totals.views} />
            <Stat icon={<HeartIcon size={14} />} label="Favourites" value={totals.favorites} />
            <Stat icon={<MessageIcon size={14} />} label="Comments" value={totals.comments} />
            <Stat icon={<CheckIcon size={14} />} label="Reviews" value={totals.approvals} />
          </dl>
          <p className="teaser-card__lock">
            <LockIcon size={13} />
            Full analytics with a free account
          </p>
        </div>
      )}

      <div className="teaser-card__actions">
        <button type="button" className="button button--secondary teaser-card__button" onClick={onDismiss}>
          Maybe Later
        </button>
        <SignUpLink className="button button--primary teaser-card__button" />
      </div>
    </aside>
  );
}

function Stat({ icon, label, value }: { icon: ReactNode; label: string; value: number }) {
  return (
    <div className="teaser-card__stat">
      <dt>
        {icon}
        {label}
      </dt>
      <dd aria-hidden="true">{NUMBER.format(value)}</dd>
    </div>
  );
}

function sumProjects(projects: readonly TAnonymousProject[]) {
  return projects.reduce(
    (sum, p) => ({
      views: sum.views + p.views_count,
      favorites: sum.favorites + p.favorites_count,
      comments: sum.comments + p.comments_count,
      approvals: sum.approvals + p.approvals_count,
    }),
    { views: 0, favorites: 0, comments: 0, approvals: 0 },
  );
}

function joinWords(words: string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}
