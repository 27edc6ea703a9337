// No eval under the dashboard's CSP: set before any module parses with zod.
import './zod-config.ts';
// Global styles first, so each component's stylesheet comes after them in the bundle and can refine them.
import './styles/tokens.css';
import './styles/base.css';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { App } from './app.tsx';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element.');

const app = (
  <StrictMode>
    <App pathname={window.location.pathname} />
  </StrictMode>
);
// The landing page arrives prerendered (scripts/prerender.ts) and is hydrated; the other app pages render here.
if (root.hasChildNodes()) hydrateRoot(root, app);
else createRoot(root).render(app);
