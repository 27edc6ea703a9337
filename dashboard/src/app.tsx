import { lazy, Suspense } from 'react';
import { LandingPage } from './pages/landing/landing-page.tsx';
import { NotFoundPage } from './pages/not-found/not-found-page.tsx';
import { resolvePage } from './routes.ts';
import { EngagementLoop } from './engagement/engagement-loop.tsx';
import { ResetPasswordPage } from './pages/sign-in/reset-password-page.tsx';
import { SignInPage } from './pages/sign-in/sign-in-page.tsx';
import { VerifyEmailPage } from './pages/sign-in/verify-email-page.tsx';

// The account page is fetched only when it opens.
const AccountPage = lazy(() => import('./pages/account/account-page.tsx').then((module) => ({ default: module.AccountPage })));

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
  switch (resolvePage(pathname)) {
    case 'landing':
      return <LandingPage />;
    case 'sign-in':
      return <SignInPage />;
    case 'reset-password':
      return <ResetPasswordPage />;
    case 'verify-email':
      return <VerifyEmailPage />;
    case 'account':
      return (
        <Suspense fallback={null}>
          <AccountPage />
        </Suspense>
      );
    case 'not-found':
      return <NotFoundPage />;
  }
}
