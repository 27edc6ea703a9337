// Global styles first, so each component's stylesheet comes after them in the bundle and can refine them.
import './styles/tokens.css';
import './styles/base.css';
import '@dropsite/shared/browser/ui.css';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app.tsx';
import { STORAGE_KEYS } from './engagement/storage-keys.ts';
import { preloadSchemasForStoredRecords } from './schemas/lazy-schemas.ts';
import { DRAFT_STORAGE_KEY, RESUME_STORAGE_KEY } from './upload/resume-store.ts';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');

// The records read synchronously on the first render are checked with schemas that load only when needed.
await preloadSchemasForStoredRecords([STORAGE_KEYS.notifications, STORAGE_KEYS.collectedEmail, RESUME_STORAGE_KEY, DRAFT_STORAGE_KEY]);

const app = (
  <StrictMode>
    <App pathname={window.location.pathname} />
  </StrictMode>
);
// The landing page arrives prerendered (scripts/prerender.ts) and is hydrated; the other app pages render here.
// The sign-in page arrives with its first view drawn (data-shell): it stays until the page's code is
// loaded, and the live page then replaces it in one commit.
if (root.dataset.shell === 'sign-in') {
  await import('./pages/sign-in/sign-in-page.tsx');
  createRoot(root).render(app);
} else if (root.hasChildNodes()) hydrateRoot(root, app);
else createRoot(root).render(app);
