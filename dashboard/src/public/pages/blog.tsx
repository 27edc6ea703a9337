import { ArrowLink } from '../../ui/arrow-link.tsx';
import { CallToAction } from '../../ui/call-to-action.tsx';
import { ArrowRightIcon } from '../../ui/icons.tsx';
import { ARTICLES, formatArticleDate, type TArticle } from '../blog/articles.ts';
import { BLOG_CHOICES } from '../blog/blog-filter.ts';
import { PageIntro } from '../layout/page-intro.tsx';
import { PublicLayout } from '../layout/public-layout.tsx';
import type { TPublicPage } from '../public-page.ts';
import { BlogIllustration } from './blog-illustration.tsx';
import '../../ui/spread-row.css';
import './blog.css';
import './ink-cta.css';

const articleHref = (article: TArticle) => `/blog/${article.slug}`;

function ArticleMeta({ article }: { article: TArticle }) {
  return (
    <p className="blog-meta">
      <span>{article.author}</span>
      <span aria-hidden="true">·</span>
      <time dateTime={article.date}>{formatArticleDate(article.date)}</time>
      <span aria-hidden="true">·</span>
      <span>{article.readTime} min read</span>
    </p>
  );
}

function ArticleCard({ article, headingLevel = 2 }: { article: TArticle; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <article className="blog-card" data-category={article.category} data-featured={article.featured ? '' : undefined}>
      {article.image && <BlogIllustration image={article.image} className="blog-card__picture" />}
      <div className="blog-card__body">
        <p className="blog-card__labels">
          {article.featured && <span className="blog-tag blog-tag--accent">Featured</span>}
          <span className="blog-tag">{article.category}</span>
        </p>
        <Heading className="blog-card__title">{article.title}</Heading>
        <p className="blog-card__excerpt">{article.excerpt}</p>
        <ArticleMeta article={article} />
        <ArrowLink className="button button--secondary blog-card__read" href={articleHref(article)} aria-label={`Read Full Article: ${article.title}`}>
          Read Full Article
        </ArrowLink>
      </div>
    </article>
  );
}

function BlogList() {
  return (
    <PublicLayout path="/blog" mainClassName="blog-page">
      <div className="container">
        <PageIntro
          block="blog-page"
          eyebrow="Blog"
          title="Guides for delivering work with Dropsite"
          lede="Practical articles on sending files to clients, collecting their feedback and keeping track of what happens next."
        />
        <div className="blog-list" data-island="blog-filter">
          <div className="blog-chips" role="group" aria-label="Filter articles by category" hidden data-chips>
            {BLOG_CHOICES.map((choice) => (
              <button key={choice} type="button" className="blog-chip" aria-pressed={choice === 'All'} data-choice={choice}>
                {choice}
              </button>
            ))}
          </div>
          <p className="blog-list__status" role="status" data-status></p>
          <ul role="list" className="blog-cards">
            {ARTICLES.map((article) => (
              <li key={article.slug} data-category={article.category}>
                <ArticleCard article={article} />
              </li>
            ))}
          </ul>
        </div>
        <aside className="blog-soon" aria-labelledby="blog-soon-heading">
          <h2 id="blog-soon-heading">More Articles Coming Soon</h2>
          <p>
            We are writing more guides on delivering work to clients. Is there something you would like us to cover? <a href="/feedback">Tell us</a>.
          </p>
        </aside>
      </div>
    </PublicLayout>
  );
}

const LIST_DESCRIPTION = 'Guides for photographers, agencies and sales teams on delivering files as a site with Dropsite.';

/** The blog's list at /blog, and at /blog-page, the address one reading of the spec gives it (its canonical is /blog). */
export const blogPages: readonly TPublicPage[] = [
  { path: '/blog', title: 'Blog', description: LIST_DESCRIPTION, Page: BlogList },
  { path: '/blog-page', title: 'Blog', description: LIST_DESCRIPTION, Page: BlogList, canonical: '/blog', unlisted: true },
];

function ArticlePage({ article }: { article: TArticle }) {
  const related = ARTICLES.filter((other) => other.slug !== article.slug);
  return (
    <PublicLayout path={articleHref(article)} mainClassName="blog-page blog-article">
      <div className="container">
        <a className="button button--secondary blog-article__back" href="/blog">
          <ArrowRightIcon size={16} className="blog-article__back-icon" />
          Back to the blog
        </a>
        <article className="blog-article__main" aria-labelledby="article-title">
          <header className="blog-article__header">
            <p className="blog-card__labels">
              <span className="blog-tag">{article.category}</span>
            </p>
            <h1 id="article-title" className="blog-article__title">
              {article.title}
            </h1>
            <p className="blog-article__lede">{article.excerpt}</p>
            <ArticleMeta article={article} />
          </header>
          {article.image && <BlogIllustration image={article.image} className="blog-article__picture" />}
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the HTML is rendered at build time from the repository's own Markdown, with raw HTML escaped (articles.ts) */}
          <div className="blog-prose" dangerouslySetInnerHTML={{ __html: article.html }} />
          <footer className="blog-article__footer spread-row">
            <h2 className="visually-hidden">Tags</h2>
            <ul role="list" className="blog-tags">
              {article.tags.map((tag) => (
                <li key={tag} className="blog-tag">
                  {tag}
                </li>
              ))}
            </ul>
            <div className="blog-share" data-island="copy-link" data-path={articleHref(article)} hidden>
              <button type="button" className="button button--secondary" data-copy>
                Copy link
              </button>
              <span className="blog-share__status" role="status" data-copy-status></span>
            </div>
          </footer>
        </article>

        <section className="ink-cta" aria-labelledby="blog-cta-heading">
          <CallToAction
            block="ink-cta"
            headingId="blog-cta-heading"
            title="Try it with your next delivery"
            text="Drop your files, add a title, and share a link and QR code. No account needed to publish."
            href="/"
            action="Upload your files"
          />
        </section>

        {related.length > 0 && (
          <section className="blog-related" aria-labelledby="blog-related-heading">
            <h2 id="blog-related-heading" className="blog-related__title">
              Related articles
            </h2>
            <ul role="list" className="blog-cards blog-cards--related">
              {related.map((other) => (
                <li key={other.slug}>
                  <ArticleCard article={other} headingLevel={3} />
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
    </PublicLayout>
  );
}

/** Each article at /blog/{slug}, and at /blog-{id}, the spec's other address for it (canonical: /blog/{slug}). */
export const articlePages: readonly TPublicPage[] = ARTICLES.flatMap((article) => {
  const page = {
    title: article.title,
    description: article.excerpt,
    // biome-ignore lint/correctness/noComponentHookFactories: one component per article, made once when the module loads and rendered once at build time (never hydrated): there is no state to lose
    Page: () => <ArticlePage article={article} />,
    ogType: 'article' as const,
  };
  return [
    { ...page, path: articleHref(article) },
    { ...page, path: `/blog-${article.id}`, canonical: articleHref(article), unlisted: true },
  ];
});
