import { useEffect } from 'react';
import { ArrowRightIcon } from '../../components/icons.tsx';
import { SiteFooter } from '../../components/site-footer.tsx';
import { SiteHeader } from '../../components/site-header.tsx';
import './not-found.css';

export function NotFoundPage() {
  useEffect(() => {
    document.title = 'Page not found · Dropsite';
  }, []);

  return (
    <>
      <SiteHeader isLandingPage={false} />
      <main className="not-found">
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
      </main>
      <SiteFooter />
    </>
  );
}
