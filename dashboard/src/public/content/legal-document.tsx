import type { ReactNode } from 'react';
import { PageIntro } from '../layout/page-intro.tsx';
import { PublicLayout } from '../layout/public-layout.tsx';
import type { TPublicPage } from '../public-page.ts';
import '../pages/content-pages.css';

/** The date every legal page was last changed (spec 2, Legal pages: 10-09-2025, day first). */
const LEGAL_LAST_UPDATED = '2025-09-10';

export interface TLegalSection {
  /** The anchor of the section, linked from the table of contents. */
  id: string;
  title: string;
  body: ReactNode;
}

/** 'Last updated 10 September 2025', as a machine-readable date. */
export function LastUpdated() {
  const label = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${LEGAL_LAST_UPDATED}T00:00:00Z`));
  return (
    <p className="legal__updated">
      Last updated <time dateTime={LEGAL_LAST_UPDATED}>{label}</time>
    </p>
  );
}

/**
 * A legal page: its title, the date it last changed, an introduction, a table of contents with
 * in-page anchors, then the numbered sections. `actions` go under the title (e.g. Back to Home).
 */
function LegalDocument({ path, title, intro, sections, actions }: { path: string; title: string; intro: ReactNode; sections: readonly TLegalSection[]; actions?: ReactNode }) {
  return (
    <PublicLayout path={path} mainClassName="content-page">
      <div className="container legal">
        <PageIntro eyebrow="Legal" title={title}>
          <LastUpdated />
          <div className="content-page__lede">{intro}</div>
          {actions && <div className="content-page__actions">{actions}</div>}
        </PageIntro>
        <div className="legal__layout">
          <nav className="legal__toc" aria-labelledby="legal-toc-heading">
            <h2 id="legal-toc-heading" className="legal__toc-heading">
              On this page
            </h2>
            <ol role="list">
              {sections.map((section, index) => (
                <li key={section.id}>
                  <a href={`#${section.id}`}>
                    <span className="legal__toc-number" aria-hidden="true">
                      {index + 1}.
                    </span>
                    {section.title}
                  </a>
                </li>
              ))}
            </ol>
          </nav>
          <div className="legal__body prose">
            {sections.map((section, index) => (
              <section key={section.id} id={section.id} aria-labelledby={`${section.id}-heading`} className="legal__section">
                <h2 id={`${section.id}-heading`}>
                  {index + 1}. {section.title}
                </h2>
                {section.body}
              </section>
            ))}
          </div>
        </div>
      </div>
    </PublicLayout>
  );
}

/** A legal page's entry in the route table, its document answering at the entry's path under the entry's title. */
export function legalPage({
  path,
  title,
  description,
  canonical,
  ...document
}: Pick<TPublicPage, 'path' | 'title' | 'description' | 'canonical'> & { intro: ReactNode; sections: readonly TLegalSection[]; actions?: ReactNode }): TPublicPage {
  // biome-ignore lint/correctness/noComponentHookFactories: made once per legal page as its module loads, never while rendering
  const Page = () => <LegalDocument path={path} title={title} {...document} />;
  return canonical === undefined ? { path, title, description, Page } : { path, title, description, Page, canonical };
}
