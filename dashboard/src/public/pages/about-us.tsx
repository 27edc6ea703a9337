import { ContentCta } from '../layout/content-cta.tsx';
import { PageIntro } from '../layout/page-intro.tsx';
import { PublicLayout } from '../layout/public-layout.tsx';
import type { TPublicPage } from '../public-page.ts';
import './content-pages.css';

const FOUNDED = 2025;

const VALUES = [
  {
    title: 'The client’s first minute matters',
    text: 'Whoever opens your link should understand it at once, on any screen, without an account or an app. Every viewer is built for that minute.',
  },
  {
    title: 'Honest by default',
    text: 'No invented numbers, no dark patterns, no trackers from other companies. We show what we have counted and say plainly what is not built yet.',
  },
  {
    title: 'Your work stays yours',
    text: 'Your files are shown only to people who have your link, and its password if you set one. They leave our servers when you delete them.',
  },
  {
    title: 'Small and fast',
    text: 'A site is built once and served as a finished page, so it opens quickly, even on a weak connection. We keep what we ship light.',
  },
] as const;

function AboutUs() {
  return (
    <PublicLayout path="/about-us" mainClassName="content-page">
      <div className="container">
        <PageIntro
          eyebrow="About Dropsite"
          title="Deliver files the way you deliver the work: with care."
          lede="Dropsite turns a folder of files into a small website with a link and a QR code, so the hand-off to a client feels as considered as everything before it."
        />

        <section className="about-block" aria-labelledby="mission-heading">
          <h2 id="mission-heading">Our mission</h2>
          <p>
            To make sending files to someone as good as showing them in person. Photographers, designers, agencies and everyone else who delivers work should not have to choose
            between a bare download link and building a website. Drop the files, add a title, share the link.
          </p>
        </section>

        <section className="about-block" aria-labelledby="values-heading">
          <h2 id="values-heading">What we value</h2>
          <ul role="list" className="about-values">
            {VALUES.map((value) => (
              <li key={value.title} className="about-value">
                <h3>{value.title}</h3>
                <p>{value.text}</p>
              </li>
            ))}
          </ul>
        </section>

        <section className="about-block" aria-labelledby="story-heading">
          <h2 id="story-heading">Our story</h2>
          <p>
            Dropsite was founded in <time dateTime={String(FOUNDED)}>{FOUNDED}</time>, out of a familiar frustration: finished work went out as a link to a folder, and clients had
            to download everything just to see it. Feedback came back scattered across emails and messages, and nobody knew whether the files had even been opened.
          </p>
          <p>
            So we built the page we wanted to send instead: every file in a viewer that suits it, favourites and comments beside the file they are about, approvals in one click,
            and a clear view for the creator of what happened. We are still building, and we listen: much of what is next comes from the people who use it.
          </p>
        </section>

        <ContentCta
          headingId="about-cta-heading"
          title="Try it with your next delivery"
          text="Publishing a site takes a minute, and you do not need an account to start."
          primary={{ href: '/', label: 'Create a site' }}
          secondary={[
            { href: '/contact', label: 'Contact us' },
            { href: '/feedback', label: 'Send feedback' },
          ]}
        />
      </div>
    </PublicLayout>
  );
}

export const aboutUsPage: TPublicPage = {
  path: '/about-us',
  title: 'About us',
  description: 'Why we built Dropsite, what we value, and our story since 2025.',
  Page: AboutUs,
};
