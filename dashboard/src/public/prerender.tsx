/**
 * The build-time renderer (bundled by `vite build --ssr`, run by `scripts/prerender.ts`): every
 * public page to static HTML, and the landing page as the app renders it before hydration.
 */
import { renderToString } from 'react-dom/server';
import { App } from '../app.tsx';
import { AuthForm } from '../auth/auth-form.tsx';
import { AccountPageFrame } from '../pages/sign-in/account-page-frame.tsx';
import { PUBLIC_PAGES } from './registry.ts';
import type { TPublicPage } from './public-page.ts';

export interface TRenderedPage {
  path: string;
  title: string;
  description: string;
  ogType: 'website' | 'article';
  unlisted: boolean;
  canonical: string;
  html: string;
}

export function renderPublicPages(): TRenderedPage[] {
  return PUBLIC_PAGES.map((page: TPublicPage) => ({
    path: page.path,
    title: page.title,
    description: page.description,
    ogType: page.ogType ?? 'website',
    unlisted: page.unlisted ?? false,
    canonical: page.canonical ?? page.path,
    html: renderToString(<page.Page />),
  }));
}

/** The landing page's markup, which `main.tsx` hydrates. */
export function renderLanding(): string {
  return renderToString(<App pathname="/" />);
}

/**
 * The sign-in page as it first shows (the sign-in form), so its heading and form are in the HTML
 * before any script runs; `main.tsx` replaces it with the live page once that page's code is loaded.
 */
export function renderSignInShell(): string {
  return renderToString(
    <AccountPageFrame>
      <AuthForm initialView="sign-in" returnTo={null} headingId="sign-in-heading" headingLevel="h1" />
    </AccountPageFrame>,
  );
}
