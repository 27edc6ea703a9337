/**
 * Spec 2 'Claim banner': the sites this browser published before signing in, offered to the
 * signed-in creator. It reads the anonymous session and its sites from the engagement store
 * the header's bell already keeps, and disappears after a claim or when dismissed. A session an
 * emailed sign-in link opened is offered nothing: the link may have been someone else's, opened in
 * this browser, and this browser's sites are not theirs to take (the server refuses that claim too).
 * The page holds the offer (useClaimOffer), so what it shows under the banner agrees with it.
 */
import { useEffect, useId, useState } from 'react';
import type { TAnonymousProject } from '@dropsite/shared';
import { ApiRequestError } from '@dropsite/shared/browser/api-client';
import { CloseIcon, ChevronDownIcon } from '../../ui/icons.tsx';
import { claimAnonymousProjects } from '../../dashboard-api/dashboard-api.ts';
import { getCreatorEngagementStore, useCreatorEngagement } from '../../engagement/creator-engagement.ts';
import { useSession } from '../../auth/session-store.ts';
import { formatDate, plural } from './project-insights.ts';
import '../../ui/round-icon-button.css';

/** Spec 8: the claim's two alerts. */
const AUTHENTICATION_REQUIRED_MESSAGE = 'Authentication required. Please sign in and try again.';
export const CLAIM_FAILED_MESSAGE = 'Failed to claim sites. Please try again.';

const DISMISSED_KEY = 'dropsite:claim-banner-dismissed';

function readDismissed(): string | null {
  try {
    return window.sessionStorage.getItem(DISMISSED_KEY);
  } catch {
    return null;
  }
}

function rememberDismissed(sessionId: string): void {
  try {
    window.sessionStorage.setItem(DISMISSED_KEY, sessionId);
  } catch {
    // Without session storage the banner simply comes back on the next page load.
  }
}

export function claimErrorMessage(error: unknown): string {
  return error instanceof ApiRequestError && error.status === 401 ? AUTHENTICATION_REQUIRED_MESSAGE : CLAIM_FAILED_MESSAGE;
}

/** What the banner offers: this browser's anonymous sites, or null when there is nothing to offer. */
export interface TClaimOffer {
  sessionId: string;
  projects: TAnonymousProject[];
  dismiss: () => void;
}

export function useClaimOffer(): TClaimOffer | null {
  const store = getCreatorEngagementStore();
  const creator = useCreatorEngagement();
  const signedIn = useSession();
  const [dismissedSession, setDismissedSession] = useState(readDismissed);

  useEffect(() => {
    // The engagement loop usually asks already; the banner does not depend on it running on this page.
    if (store.getSnapshot().status === 'loading') void store.refresh({ withSession: true });
  }, [store]);

  const session = creator.session;
  const projects = creator.projects ?? [];
  if (creator.status !== 'ready' || !session || projects.length === 0 || dismissedSession === session.sessionId) return null;
  if (signedIn.status !== 'signed-in' || signedIn.creator.signedInByLink) return null;
  return {
    sessionId: session.sessionId,
    projects,
    dismiss: () => {
      rememberDismissed(session.sessionId);
      setDismissedSession(session.sessionId);
    },
  };
}

export function ClaimBanner({ offer, onClaimed }: { offer: TClaimOffer | null; onClaimed: (claimed: number) => void }) {
  const store = getCreatorEngagementStore();
  const [isOpen, setOpen] = useState(false);
  const [isClaiming, setClaiming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const detailsId = useId();
  const titleId = useId();

  if (!offer) return null;
  const { projects } = offer;

  const claim = async () => {
    setClaiming(true);
    setError(null);
    try {
      const claimed = await claimAnonymousProjects(offer.sessionId);
      // The anonymous cookie is gone: the store (and with it the bell and this banner) learns it.
      await store.refresh({ withSession: true });
      onClaimed(claimed);
    } catch (err) {
      setError(claimErrorMessage(err));
    } finally {
      setClaiming(false);
    }
  };

  return (
    <section className="dash-claim" aria-labelledby={titleId}>
      <div className="dash-claim__bar">
        <div className="dash-claim__text">
          <h2 id={titleId} className="dash-claim__title">
            You have {plural(projects.length, 'site')} to claim
          </h2>
          <p className="dash-claim__lead">Sites you published in this browser before signing in. Claim them to keep their comments, favourites and analytics in your account.</p>
        </div>
        <div className="dash-claim__actions">
          <button type="button" className="button button--primary" onClick={claim} disabled={isClaiming}>
            {isClaiming ? 'Claiming…' : projects.length === 1 ? 'Claim Site' : 'Claim All Sites'}
          </button>
          <button type="button" className="button button--secondary" aria-expanded={isOpen} aria-controls={detailsId} onClick={() => setOpen((open) => !open)}>
            {isOpen ? 'Hide Details' : 'Show Details'}
            <ChevronDownIcon size={16} className="dash-chevron" data-open={isOpen ? '' : undefined} />
          </button>
        </div>
        <button type="button" className="dash-claim__dismiss round-icon-button" aria-label="Dismiss" onClick={offer.dismiss}>
          <CloseIcon size={18} />
        </button>
      </div>
      {error && (
        <p className="dash-claim__error" role="alert">
          {error}
        </p>
      )}
      <ul id={detailsId} role="list" className="dash-claim__list" hidden={!isOpen}>
        {projects.map((project) => (
          <li key={project.id} className="dash-claim__project">
            <div className="dash-claim__project-head">
              <h3>{project.title}</h3>
              <time dateTime={project.created_at}>{formatDate(project.created_at)}</time>
            </div>
            {project.description && <p className="dash-muted">{project.description}</p>}
            <ul role="list" className="dash-badges" aria-label="Enabled features">
              {project.settings.enable_favorites && <li className="dash-badge">Favourites</li>}
              {project.settings.enable_comments && <li className="dash-badge">Comments</li>}
              {project.settings.enable_approvals && <li className="dash-badge">Approvals</li>}
            </ul>
          </li>
        ))}
      </ul>
    </section>
  );
}
