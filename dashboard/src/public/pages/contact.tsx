import { ContactForm } from '../../forms/contact-form.tsx';
import { PageIntro } from '../layout/page-intro.tsx';
import { PublicLayout } from '../layout/public-layout.tsx';
import type { TPublicPage } from '../public-page.ts';
import './content-pages.css';

/** The subjects a message can have, with the time we answer each in (spec 9: 24 h, 12 h, 48 h). */
const CHANNELS = [
  { title: 'General questions', text: 'About Dropsite, your account or anything else.', replyHours: 24 },
  { title: 'Technical support', text: 'An upload, a site or a file that does not work as it should.', replyHours: 12 },
  { title: 'Business and sales', text: 'Plans for teams, agencies and larger deliveries.', replyHours: 48 },
] as const;

function Contact() {
  return (
    <PublicLayout path="/contact" mainClassName="content-page">
      <div className="container">
        <PageIntro eyebrow="Contact" title="Get in touch" lede="A question, a problem with a site, or a plan for your team: write to us and a person will answer." />
        <div className="contact-layout">
          <section className="contact-form-panel" aria-labelledby="contact-form-heading">
            <h2 id="contact-form-heading" className="contact-layout__heading">
              Send a message
            </h2>
            <ContactForm headingLevel="h3" />
          </section>
          <aside className="contact-aside" aria-labelledby="contact-channels-heading">
            <h2 id="contact-channels-heading" className="contact-layout__heading">
              How fast we answer
            </h2>
            <ul role="list" className="contact-channels">
              {CHANNELS.map((channel) => (
                <li key={channel.title} className="contact-channel">
                  <h3 className="contact-channel__title">{channel.title}</h3>
                  <p className="contact-channel__text">{channel.text}</p>
                  <p className="contact-channel__time">Reply within {channel.replyHours} hours</p>
                </li>
              ))}
            </ul>
            <p className="contact-aside__note">
              Looking for a quick answer? The <a href="/faq">FAQ</a> and the <a href="/help">Help Center</a> may already have it.
            </p>
          </aside>
        </div>
      </div>
    </PublicLayout>
  );
}

export const contactPage: TPublicPage = {
  path: '/contact',
  title: 'Contact us',
  description: 'Questions, technical support or business enquiries: send Dropsite a message and get a reply within 24 hours.',
  Page: Contact,
};
