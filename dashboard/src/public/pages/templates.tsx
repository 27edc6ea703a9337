import { TEMPLATE_CATALOGUE, TEMPLATE_IDS, type TTemplateId } from '@dropsite/shared/templates';
import { DemoPreviewPicture } from '../../ui/demo-preview-picture.tsx';
import { CallToAction } from '../../ui/call-to-action.tsx';
import { PlusIcon } from '../../ui/icons.tsx';
import { PageIntro } from '../layout/page-intro.tsx';
import { PublicLayout } from '../layout/public-layout.tsx';
import type { TPublicPage } from '../public-page.ts';
import '../../ui/column-grid.css';
import '../../ui/demo-preview-name.css';
import './templates.css';
import './ink-cta.css';

/** The wizard on the home page, with this template chosen (the wizard reads `?template=`). */
const useHref = (id: TTemplateId) => `/?template=${encodeURIComponent(id)}#upload`;

/** A card's width in each layout of templates.css: one column to 640 px, two to 1024 px, then three in the 1160 px container. */
const CARD_SIZES = '(max-width: 639.98px) calc(100vw - 40px), (max-width: 1023.98px) calc(46vw - 12px), 370px';
/** The first row of the three-column grid is in the first screen of a desktop; the rest load as they come near. */
const FIRST_ROW = 3;

function TemplateCard({ id, inFirstRow }: { id: TTemplateId; inFirstRow: boolean }) {
  const template = TEMPLATE_CATALOGUE[id];
  const headingId = `template-${id}`;
  return (
    <li className="template-card">
      <div className="template-card__frame">
        <span className="template-card__placeholder demo-preview-name" aria-hidden="true">
          {template.name}
        </span>
        <DemoPreviewPicture
          className="template-card__picture"
          demoPath={template.demoPath}
          sizes={CARD_SIZES}
          lazy={!inFirstRow}
          alt={`The ${template.name} demo site: its title over its first picture.`}
        />
      </div>
      <div className="template-card__body">
        <h2 id={headingId} className="template-card__name">
          {template.name}
          {id === 'universal' && <span className="template-card__tag">Recommended</span>}
        </h2>
        <p className="template-card__text">{template.description}</p>
        <div className="template-card__actions">
          <a className="button button--secondary" href={template.demoPath} aria-label={`View demo: ${template.name}`}>
            View demo
          </a>
          <a className="button button--primary" href={useHref(id)} aria-label={`Use this template: ${template.name}`}>
            Use this template
          </a>
        </div>
      </div>
    </li>
  );
}

function Templates() {
  return (
    <PublicLayout path="/templates" mainClassName="templates-page">
      <div className="container">
        <PageIntro
          block="templates-page"
          eyebrow="Templates"
          title="A template for every kind of delivery"
          lede="Each template lays out the same files differently: photos first for a shoot, the story first for a case study, the final files first for a client. Open a demo to see one with sample content, then start your site with it. You can switch a site’s template later from your dashboard."
        />
        <ul role="list" className="template-grid column-grid" data-island="template-previews">
          {TEMPLATE_IDS.map((id, index) => (
            <TemplateCard key={id} id={id} inFirstRow={index < FIRST_ROW} />
          ))}
          <li className="template-card template-card--request">
            <span className="template-card__request-icon ui-tile" aria-hidden="true">
              <PlusIcon size={24} />
            </span>
            <h2 id="template-request" className="template-card__name">
              Need a different template?
            </h2>
            <p className="template-card__text">Tell us what you deliver and how you would like it to look. Requests shape what we build next.</p>
            <a className="button button--secondary" href="/feedback?subject=Request%20Template">
              Request Template
            </a>
          </li>
        </ul>
        <section className="ink-cta" aria-labelledby="templates-cta-heading">
          <CallToAction
            block="ink-cta"
            headingId="templates-cta-heading"
            title="Ready when your files are"
            largeTitle
            text="Drop your files, pick a template, and share a link and QR code. No account needed to publish."
            href="/"
            action="Get Started Now"
          />
        </section>
      </div>
    </PublicLayout>
  );
}

export const templatesPage: TPublicPage = {
  path: '/templates',
  title: 'Templates',
  description: 'Eight templates for delivering files as a site: a universal one, photo gallery, portfolio, event, pitch, product showcase, case study and client delivery.',
  Page: Templates,
};
