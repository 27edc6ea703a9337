/** Every prerendered public page of the route table. The prerender writes each; the API serves them by path. */
import { notFoundPage } from './pages/not-found.tsx';
import type { TPublicPage } from './public-page.ts';

export const PUBLIC_PAGES: readonly TPublicPage[] = [notFoundPage];
