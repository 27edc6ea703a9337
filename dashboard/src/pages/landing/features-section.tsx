import type { ReactElement } from 'react';
import { ChartIcon, HeartIcon, LinkIcon, LockIcon, MessageIcon, PanelsIcon } from '../../ui/icons.tsx';
import { LandingSection } from './landing-section.tsx';

interface TFeature {
  icon: (p: { size?: number }) => ReactElement;
  title: string;
  text: string;
  isPro?: boolean;
}

const FEATURES: TFeature[] = [
  {
    icon: PanelsIcon,
    title: 'A viewer for every file',
    text: 'Photos open in a gallery, PDFs in a page viewer, video in a proper player. Everything else downloads cleanly, one file or all at once.',
  },
  {
    icon: LinkIcon,
    title: 'Link and QR code',
    text: 'Every site gets a short link and a QR code, ready for an email, a message or a printed proof sheet.',
  },
  {
    icon: LockIcon,
    title: 'Password and expiry',
    text: 'Keep a delivery behind a password, or let it expire on the date you choose.',
  },
  {
    icon: HeartIcon,
    title: 'Client favourites',
    text: 'Clients heart the files they love, so selections come back as a list you can act on.',
  },
  {
    icon: MessageIcon,
    title: 'Comments and approvals',
    text: 'Feedback sits next to the file it is about, and clients can approve or ask for changes.',
    isPro: true,
  },
  {
    icon: ChartIcon,
    title: 'Views and downloads',
    text: 'See when your site was opened and which files were downloaded, without chasing anyone.',
  },
];

export function FeaturesSection() {
  return (
    <LandingSection
      headingId="features-heading"
      eyebrow="Features"
      title="Everything a delivery needs, nothing your client has to learn"
      intro={<p>Made for photographers, designers and agencies who want the hand-off to feel as considered as the work.</p>}
    >
      <ul role="list" className="features">
        {FEATURES.map(({ icon: Icon, title, text, isPro }) => (
          <li key={title} className="feature">
            <span className="feature__icon ui-tile" aria-hidden="true">
              <Icon size={20} />
            </span>
            <h3 className="feature__title">
              {title}
              {isPro && <span className="tag">Pro</span>}
            </h3>
            <p className="feature__text">{text}</p>
          </li>
        ))}
      </ul>
    </LandingSection>
  );
}
