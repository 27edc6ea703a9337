import { TEMPLATE_CATALOGUE } from '@dropsite/shared/templates';
import { ArrowRightIcon } from '../../components/icons.tsx';

/** The templates the landing page previews; the gallery at /templates has them all. */
const PREVIEWED = ['photo-gallery', 'portfolio-resume', 'pitch-template'] as const;

/**
 * Spec: the template preview. Each card shows the link-preview picture of the template's demo
 * site (built from a sample project with the same template and builder as a creator's site).
 */
export function TemplatePreviewSection() {
  return (
    <section className="section" aria-labelledby="templates-heading">
      <div className="container">
        <div className="section-heading section-heading--split">
          <div>
            <p className="eyebrow">Templates</p>
            <h2 id="templates-heading">Pick a look that suits the work</h2>
          </div>
          <a className="button button--secondary" href="/templates">
            See all templates
            <ArrowRightIcon size={16} />
          </a>
        </div>
        <ul role="list" className="template-previews">
          {PREVIEWED.map((id) => {
            const template = TEMPLATE_CATALOGUE[id];
            return (
              <li key={id}>
                <a className="template-preview" href={template.demoPath}>
                  <span className="template-preview__frame">
                    <img src={`${template.demoPath}/og.png`} width={1200} height={630} loading="lazy" decoding="async" alt="" />
                  </span>
                  <span className="template-preview__name">{template.name}</span>
                  <span className="template-preview__text">{template.description}</span>
                </a>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
