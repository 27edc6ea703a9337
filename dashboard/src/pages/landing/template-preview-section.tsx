import { TEMPLATE_CATALOGUE } from '@dropsite/shared/templates';
import { DemoPreviewPicture } from '../../ui/demo-preview-picture.tsx';
import { ArrowLink } from '../../ui/arrow-link.tsx';
import { LandingSection } from './landing-section.tsx';
import '../../ui/demo-preview-name.css';

/** The templates the landing page previews; the gallery at /templates has them all. */
const PREVIEWED = ['photo-gallery', 'portfolio-resume', 'pitch-template'] as const;

/** A preview's width in each layout of landing.css: one column to 960 px, then three in the 1160 px container. */
const PREVIEW_SIZES = '(max-width: 959.98px) calc(100vw - 40px), 374px';

/**
 * Spec: the template preview. Each card shows the card picture of the template's demo site (its
 * link picture made small; the demo is built from a sample project with the same template and
 * builder as a creator's site). Far below the first screen, so every picture loads lazily. Until a
 * demo's picture exists (a fresh server builds the demos after it starts), its frame shows the
 * template's name.
 */
export function TemplatePreviewSection() {
  return (
    <LandingSection
      headingId="templates-heading"
      eyebrow="Templates"
      title="Pick a look that suits the work"
      action={
        <ArrowLink className="button button--secondary" href="/templates">
          See all templates
        </ArrowLink>
      }
    >
      <ul role="list" className="template-previews">
        {PREVIEWED.map((id) => {
          const template = TEMPLATE_CATALOGUE[id];
          return (
            <li key={id}>
              <a className="template-preview" href={template.demoPath}>
                <span className="template-preview__frame">
                  <span className="template-preview__placeholder demo-preview-name" aria-hidden="true">
                    {template.name}
                  </span>
                  <DemoPreviewPicture demoPath={template.demoPath} sizes={PREVIEW_SIZES} lazy alt="" />
                </span>
                <span className="template-preview__name">{template.name}</span>
                <span className="template-preview__text">{template.description}</span>
              </a>
            </li>
          );
        })}
      </ul>
    </LandingSection>
  );
}
