/**
 * The engagement teaser for anonymous creators (spec 2.8, 4): how many interactions their sites
 * had, what kinds, and the days left of the 7-day window, coloured by urgency. The per-site
 * analytics are what a free account shows, so they are not sent to this card at all (not merely
 * hidden). 'Maybe Later' hides it for good; 'Sign Up Free' opens the sign-up form and comes back here.
 */
import { useId } from 'react';
import type { TEngagementSummary } from '@dropsite/shared';
import { CloseIcon, ExpiryClockIcon, LockIcon } from '../ui/icons.tsx';
import '../ui/close-button.css';
import { SignUpLink } from '../auth/sign-up-link.tsx';
import { formatDaysRemaining, teaserUrgency } from './teaser-rules.ts';

interface TTeaserCardProps {
  summary: TEngagementSummary;
  onDismiss: () => void;
}

const NUMBER = new Intl.NumberFormat('en');

export function TeaserCard({ summary, onDismiss }: TTeaserCardProps) {
  const titleId = useId();
  const urgency = teaserUrgency(summary.days_remaining);
  const interactions = summary.total_interactions;
  const kinds = [summary.has_favorites && 'favourited', summary.has_comments && 'commented on', summary.has_approvals && 'reviewed'].filter(Boolean) as string[];

  return (
    <aside className="teaser-card" aria-labelledby={titleId} data-urgency={urgency}>
      <button type="button" className="close-button ui-icon-button teaser-card__close" aria-label="Close" onClick={onDismiss}>
        <CloseIcon size={16} />
      </button>
      <p className="teaser-card__days" data-urgency={urgency}>
        <ExpiryClockIcon size={14} />
        {formatDaysRemaining(summary.days_remaining)}
      </p>
      <h2 id={titleId} className="teaser-card__title">
        <span className="teaser-card__count">{NUMBER.format(interactions)}</span> {interactions === 1 ? 'interaction' : 'interactions'} on your sites
      </h2>
      <p className="teaser-card__text">
        {kinds.length > 0 ? `Visitors ${joinWords(kinds)} your files.` : 'Visitors are engaging with your files.'} Sign up free to see who did what, and keep it beyond{' '}
        {summary.days_remaining <= 1 ? 'today' : `the next ${summary.days_remaining} days`}.
      </p>

      <p className="teaser-card__lock">
        <LockIcon size={13} />
        Full analytics with a free account
      </p>

      <div className="teaser-card__actions">
        <button type="button" className="button button--secondary teaser-card__button" onClick={onDismiss}>
          Maybe Later
        </button>
        <SignUpLink className="button button--primary teaser-card__button" />
      </div>
    </aside>
  );
}

function joinWords(words: string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}
