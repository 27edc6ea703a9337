import { LandingPage } from './pages/landing/landing-page.tsx';
import { NotFoundPage } from './pages/not-found/not-found-page.tsx';
import { resolvePage } from './routes.ts';
import { EngagementLoop } from './engagement/engagement-loop.tsx';

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
    case 'not-found':
      return <NotFoundPage />;
  }
}
