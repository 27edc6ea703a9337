import { ArrowRightIcon, DocumentIcon, MessageIcon, PlusIcon } from '../../ui/icons.tsx';
import { HELP_ARTICLES_SHOWN, HELP_CATEGORIES, readMinutes } from '../content/help-center.ts';
import { PageIntro } from '../layout/page-intro.tsx';
import { PublicLayout } from '../layout/public-layout.tsx';
import type { TPublicPage } from '../public-page.ts';
import './content-pages.css';

/** Where the Help Center sends a visitor it has not answered. */
const HELP_ACTIONS = [
  { href: '/contact', Icon: MessageIcon, title: 'Contact support', description: 'Ask us anything. We reply within 24 hours.' },
  { href: '/feedback?subject=Feature%20request', Icon: PlusIcon, title: 'Request a feature', description: 'Tell us what would make Dropsite better for you.' },
  { href: '/faq', Icon: DocumentIcon, title: 'Read the FAQ', description: 'Plans, billing, refunds and more.' },
] as const;

function Help() {
  return (
    <PublicLayout path="/help" mainClassName="content-page">
      <div className="container" data-island="help-search">
        <PageIntro eyebrow="Help Center" title="How can we help?" lede="Short answers for publishing, sharing and managing your sites. Search, or open an article below.">
          <form role="search" className="help-search" action="/help" method="get" data-help-form>
            <label htmlFor="help-query" className="help-search__label">
              Search the Help Center
            </label>
            <input
              id="help-query"
              className="help-search__input"
              type="search"
              name="q"
              autoComplete="off"
              placeholder="Try: password, QR code, replace"
              aria-describedby="help-status"
              data-help-input
            />
            <p id="help-status" className="help-search__status" role="status" data-help-status />
          </form>
        </PageIntro>

        <ul role="list" className="help-categories">
          {HELP_CATEGORIES.map((category) => (
            <li key={category.id} className="help-category" data-help-category>
              <section id={category.id} aria-labelledby={`${category.id}-heading`}>
                <h2 id={`${category.id}-heading`} className="help-category__title" data-help-title>
                  {category.title}
                </h2>
                <p className="help-category__description" data-help-description>
                  {category.description}
                </p>
                <ul role="list" className="help-articles">
                  {category.articles.slice(0, HELP_ARTICLES_SHOWN).map((article) => (
                    <li key={article.id}>
                      <details id={article.id} className="help-article">
                        <summary className="help-article__summary">
                          <span className="help-article__title" data-help-article-title>
                            {article.title}
                          </span>
                          <span className="help-article__time">{readMinutes(article)} min read</span>
                        </summary>
                        <div className="help-article__body prose">
                          {article.body.map((paragraph) => (
                            <p key={paragraph}>{paragraph}</p>
                          ))}
                        </div>
                      </details>
                    </li>
                  ))}
                </ul>
              </section>
            </li>
          ))}
        </ul>

        <div className="help-empty" hidden data-help-empty>
          <h2 className="help-empty__title">
            No results for "<span data-help-empty-query />"
          </h2>
          <p>
            Try a shorter or different word, such as "password" or "upload". Still stuck? <a href="/contact">Contact support</a> and we will answer within 24 hours.
          </p>
        </div>

        <section className="help-actions" aria-labelledby="help-actions-heading">
          <h2 id="help-actions-heading" className="help-actions__heading">
            Need something else?
          </h2>
          <ul role="list" className="help-actions__list">
            {HELP_ACTIONS.map((action) => (
              <li key={action.href}>
                <a className="help-action" href={action.href}>
                  <span className="help-action__icon ui-tile" aria-hidden="true">
                    <action.Icon size={20} />
                  </span>
                  <span className="help-action__text">
                    <span className="help-action__title">{action.title}</span>
                    <span className="help-action__description">{action.description}</span>
                  </span>
                  <ArrowRightIcon size={18} />
                </a>
              </li>
            ))}
          </ul>
        </section>
      </div>
    </PublicLayout>
  );
}

export const helpPage: TPublicPage = {
  path: '/help',
  title: 'Help Center',
  description: 'Help with publishing, sharing and managing your Dropsite sites: templates, files, passwords, expiry, your account and troubleshooting.',
  Page: Help,
};
