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
import { currentWorkspaceOf, useWorkspaces } from '../../workspaces/workspace-store.ts';
import { WORKSPACE_ROLE_TEXT } from '@dropsite/shared';
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
            <NewSiteForRole />
          </main>
        )}
      </AccessGuard>
      <SiteFooter />
    </>
  );
}

/** The wizard for a role that may publish into the current workspace; for a viewer, why it is not offered. */
function NewSiteForRole() {
  const state = useWorkspaces();
  if (state.status === 'loading') return null;
  const current = state.status === 'ready' ? currentWorkspaceOf(state.list) : null;
  // Without the list the wizard is offered: the server still refuses a role that may not publish.
  if (current && !current.permissions.includes('sites.create'))
    return (
      <div className="dash-empty">
        <h1>You can’t publish sites in {current.name}</h1>
        <p>
          Your role there is {WORKSPACE_ROLE_TEXT[current.role].label}: {WORKSPACE_ROLE_TEXT[current.role].summary.toLowerCase()}. Ask its owner or an admin to make you an editor,
          or switch to your personal workspace in the header.
        </p>
      </div>
    );
  return (
    <div className="dash-new__wizard">
      <UploadWizard />
    </div>
  );
}
