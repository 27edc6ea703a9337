import { LandingPage } from './pages/landing/landing-page.tsx';
import { NotFoundPage } from './pages/not-found/not-found-page.tsx';
import { resolvePage } from './routes.ts';

export function App({ pathname }: { pathname: string }) {
  switch (resolvePage(pathname)) {
    case 'landing':
      return <LandingPage />;
    case 'not-found':
      return <NotFoundPage />;
  }
}
