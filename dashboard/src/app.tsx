import { lazy, Suspense } from 'react';
import { LandingPage } from './pages/landing/landing-page.tsx';
import { notFoundPage } from './public/pages/not-found.tsx';
import { invitationTokenOfPath, projectIdOfPath, resolveAppPage } from '@dropsite/shared/app-routes';
import { DashboardLoading } from './ui/dashboard-loading.tsx';
import { EngagementLoop } from './engagement/engagement-loop.tsx';

// Every page but the landing page is fetched only when it opens.
const SignInPage = lazy(() => import('./pages/sign-in/sign-in-page.tsx').then((module) => ({ default: module.SignInPage })));
const ResetPasswordPage = lazy(() => import('./pages/sign-in/reset-password-page.tsx').then((module) => ({ default: module.ResetPasswordPage })));
const VerifyEmailPage = lazy(() => import('./pages/sign-in/verify-email-page.tsx').then((module) => ({ default: module.VerifyEmailPage })));
const UndoEmailChangePage = lazy(() => import('./pages/sign-in/undo-email-change-page.tsx').then((module) => ({ default: module.UndoEmailChangePage })));
const AccountPage = lazy(() => import('./pages/account/account-page.tsx').then((module) => ({ default: module.AccountPage })));
// The creator's dashboard (and the chart library it loads) is fetched only when one of its pages opens.
const DashboardPage = lazy(() => import('./pages/dashboard/dashboard-page.tsx').then((module) => ({ default: module.DashboardPage })));
const NewSitePage = lazy(() => import('./pages/dashboard/new-site-page.tsx').then((module) => ({ default: module.NewSitePage })));
const ProjectDetailPage = lazy(() => import('./pages/dashboard/project-detail-page.tsx').then((module) => ({ default: module.ProjectDetailPage })));
const MembersPage = lazy(() => import('./pages/members/members-page.tsx').then((module) => ({ default: module.MembersPage })));
const AuditPage = lazy(() => import('./pages/audit/audit-page.tsx').then((module) => ({ default: module.AuditPage })));
const InvitationPage = lazy(() => import('./pages/invitation/invitation-page.tsx').then((module) => ({ default: module.InvitationPage })));
const BillingPage = lazy(() => import('./pages/billing/billing-page.tsx').then((module) => ({ default: module.BillingPage })));

export function App({ pathname }: { pathname: string }) {
  return (
    <>
      <AppPage pathname={pathname} />
      {/* The anonymous creator's engagement loop (alerts, email prompts, teaser) runs on every page. */}
      <EngagementLoop />
    </>
  );
}

function AppPage({ pathname }: { pathname: string }) {
  switch (resolveAppPage(pathname)) {
    case 'landing':
      return <LandingPage />;
    case 'dashboard':
      return (
        <Suspense fallback={<DashboardLoading />}>
          <DashboardPage />
        </Suspense>
      );
    case 'new-site':
      return (
        <Suspense fallback={<DashboardLoading />}>
          <NewSitePage />
        </Suspense>
      );
    case 'project':
      return (
        <Suspense fallback={<DashboardLoading />}>
          <ProjectDetailPage projectId={projectIdOfPath(pathname) ?? ''} />
        </Suspense>
      );
    case 'members':
      return (
        <Suspense fallback={<DashboardLoading />}>
          <MembersPage />
        </Suspense>
      );
    case 'audit':
      return (
        <Suspense fallback={<DashboardLoading />}>
          <AuditPage />
        </Suspense>
      );
    case 'invitation':
      return (
        <Suspense fallback={null}>
          <InvitationPage token={invitationTokenOfPath(pathname) ?? ''} />
        </Suspense>
      );
    case 'billing':
      return (
        <Suspense fallback={<DashboardLoading />}>
          <BillingPage />
        </Suspense>
      );
    case 'sign-in':
      return (
        <Suspense fallback={null}>
          <SignInPage />
        </Suspense>
      );
    case 'reset-password':
      return (
        <Suspense fallback={null}>
          <ResetPasswordPage />
        </Suspense>
      );
    case 'verify-email':
      return (
        <Suspense fallback={null}>
          <VerifyEmailPage />
        </Suspense>
      );
    case 'undo-email-change':
      return (
        <Suspense fallback={null}>
          <UndoEmailChangePage />
        </Suspense>
      );
    case 'account':
      return (
        <Suspense fallback={null}>
          <AccountPage />
        </Suspense>
      );
    case 'not-found':
      // The app is only served at its own routes; an unknown one shows the same 404 page as the server's.
      return <notFoundPage.Page />;
  }
}
