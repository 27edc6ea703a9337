import { ArrowLink } from '../../ui/arrow-link.tsx';
import { LandingSection } from './landing-section.tsx';

const AUDIENCES = [
  {
    id: 'photographers',
    eyebrow: 'For photographers',
    title: 'Proofs and finals your clients enjoy opening',
    text: 'Drop the shoot folder by folder and each one becomes a filter in the gallery. Clients open every photo full screen, heart their favourites and download the set as one ZIP.',
    points: ['Gallery with categories and a full-screen lightbox', 'Favourites come back to you as a list', 'Password and expiry for private shoots'],
    demo: { href: '/photo-gallery', label: 'See the photo gallery' },
  },
  {
    id: 'agencies',
    eyebrow: 'For agencies and designers',
    title: 'Reviews that end in an approval',
    text: 'Decks, PDFs, video cuts and source archives on one page. Clients comment next to the file, approve it or ask for changes, and you replace a file without sending a new link.',
    points: ['Approve or request changes per file', 'Replace a file under the same link', 'An email when a client comments'],
    demo: { href: '/client-delivery', label: 'See a client delivery' },
  },
  {
    id: 'sales',
    eyebrow: 'For sales teams',
    title: 'Know when the proposal was opened',
    text: 'Send the deck, the one-pager and the price sheet as one link or a QR code. See the views and downloads on your dashboard and follow up at the right moment.',
    points: ['PDFs and presentations in a page viewer', 'Views and downloads on your dashboard', 'A QR code for every site'],
    demo: { href: '/pitch-template', label: 'See a pitch site' },
  },
] as const;

/** Spec: audience sections for photographers, agencies and sales, each leading to a demo made with the same template a creator gets. */
export function AudienceSection() {
  return (
    <LandingSection alt headingId="audience-heading" eyebrow="Who it’s for" title="Made for people who deliver files to clients">
      <div className="audiences">
        {AUDIENCES.map((audience) => (
          <article key={audience.id} className="audience" aria-labelledby={`audience-${audience.id}`}>
            <p className="eyebrow">{audience.eyebrow}</p>
            <h3 id={`audience-${audience.id}`} className="audience__title">
              {audience.title}
            </h3>
            <p className="audience__text">{audience.text}</p>
            <ul role="list" className="audience__points">
              {audience.points.map((point) => (
                <li key={point}>{point}</li>
              ))}
            </ul>
            <ArrowLink className="audience__link" href={audience.demo.href}>
              {audience.demo.label}
            </ArrowLink>
          </article>
        ))}
      </div>
    </LandingSection>
  );
}
