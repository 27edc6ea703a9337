import { ArrowRightIcon } from '../../ui/icons.tsx';
import '../../pages/not-found/not-found.css';
import { PublicLayout } from '../layout/public-layout.tsx';
import type { TPublicPage } from '../public-page.ts';

function NotFound() {
  return (
    <PublicLayout path="/404" mainClassName="not-found">
      <div className="not-found__inner container">
        <p className="not-found__code" aria-hidden="true">
          404
        </p>
        <h1 className="not-found__title">Page not found</h1>
        <p className="not-found__text">There is nothing at this address. If someone shared a link with you, check that it was copied in full, or ask them to send it again.</p>
        <a className="button button--primary button--large not-found__home" href="/">
          Back to the home page
          <ArrowRightIcon size={18} />
        </a>
      </div>
    </PublicLayout>
  );
}

/** The real 404 page: every path that is neither a page, an app route, nor a site. */
export const notFoundPage: TPublicPage = {
  path: '/404',
  title: 'Page not found',
  description: 'There is nothing at this address.',
  Page: NotFound,
  unlisted: true,
};
