import { ArrowRightIcon } from '../../ui/icons.tsx';
import { LandingSection } from './landing-section.tsx';

const OUTCOMES = [
  {
    pain: 'Download links that expire before your client gets to them.',
    outcome: 'A page that stays up as long as you choose, with a date you set.',
  },
  {
    pain: 'Feedback scattered across email threads and screenshots.',
    outcome: 'Comments, favourites and approvals next to the file they are about.',
  },
  {
    pain: 'No idea whether the delivery was even opened.',
    outcome: 'Views and downloads on your dashboard, and an email when a client reacts.',
  },
] as const;

/** Spec: three pain/outcome cards that lead to How it works. */
export function OutcomesSection() {
  return (
    <LandingSection headingId="outcomes-heading" eyebrow="Why Dropsite" title="Delivering the work shouldn’t be the hard part">
      <ul role="list" className="outcomes">
        {OUTCOMES.map(({ pain, outcome }) => (
          <li key={pain}>
            <a className="outcome" href="#how-it-works">
              <span className="outcome__pain">{pain}</span>
              <span className="outcome__result">{outcome}</span>
              <span className="outcome__more">
                See how it works
                <ArrowRightIcon size={16} />
              </span>
            </a>
          </li>
        ))}
      </ul>
    </LandingSection>
  );
}
