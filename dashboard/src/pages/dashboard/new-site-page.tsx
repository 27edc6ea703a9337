/**
 * /dashboard/new: 'Create New Site' for a signed-in creator. The upload wizard on a page of the
 * dashboard, without the landing page's pitch around it; what it publishes joins the account.
 */
import { useEffect } from 'react';
import { APP_PATHS } from '@dropsite/shared/app-routes';
import { SiteFooter } from '../../chrome/site-footer.tsx';
import { SiteHeader } from '../../chrome/site-header.tsx';
import { UploadWizard } from '../../wizard/upload-wizard.tsx';
import { BackToSites } from './back-to-sites.tsx';
import { AccessGuard } from '../../auth/access-guard.tsx';
import './dashboard.css';

export function NewSitePage() {
  useEffect(() => {
    document.title = 'New site · Dashboard · Dropsite';
  }, []);
  return (
    <>
      <SiteHeader isLandingPage={false} />
      <AccessGuard returnTo={APP_PATHS['new-site']}>
        {() => (
          <main id="main" className="dash container dash-new">
            <BackToSites />
            <div className="dash-new__wizard">
              <UploadWizard />
            </div>
          </main>
        )}
      </AccessGuard>
      <SiteFooter />
    </>
  );
}
