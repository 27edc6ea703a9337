/**
 * /dashboard/new: 'Create New Site' for a signed-in creator. The upload wizard on a page of the
 * dashboard, without the landing page's pitch around it; what it publishes joins the account.
 */
import { useEffect } from 'react';
import { APP_PATHS } from '@dropsite/shared';
import { SiteFooter } from '../../chrome/site-footer.tsx';
import { SiteHeader } from '../../chrome/site-header.tsx';
import { UploadWizard } from '../../wizard/upload-wizard.tsx';
import { ArrowLeftIcon } from '../../ui/icons.tsx';
import { AccessGuard } from '../../auth/access-guard.tsx';
import { NEW_SITE_PATH } from '../../routes.ts';
import './dashboard.css';

export function NewSitePage() {
  useEffect(() => {
    document.title = 'New site · Dashboard · Dropsite';
  }, []);
  return (
    <>
      <SiteHeader isLandingPage={false} />
      <AccessGuard returnTo={NEW_SITE_PATH}>
        {() => (
          <main id="main" className="dash container dash-new">
            <a className="dash-back" href={APP_PATHS.dashboard}>
              <ArrowLeftIcon size={16} />
              All sites
            </a>
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
