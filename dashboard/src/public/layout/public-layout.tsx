import type { ReactNode } from 'react';
import { SiteFooter } from '../../chrome/site-footer.tsx';
import { PublicHeader } from './public-header.tsx';

/** Every prerendered public page: skip link, the public header, the page's main content, the footer. */
export function PublicLayout({ path, children, mainClassName }: { path: string; children: ReactNode; mainClassName?: string }) {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <PublicHeader currentPath={path} />
      <main id="main" tabIndex={-1} className={mainClassName}>
        {children}
      </main>
      <SiteFooter />
    </>
  );
}
