import type { ReactNode } from 'react';
import { SiteFooter } from '../../chrome/site-footer.tsx';
import { SiteHeader } from '../../chrome/site-header.tsx';
import './account-pages.css';

/** The narrow card the sign-in, reset and verification pages share. */
export function AccountPageFrame({ children }: { children: ReactNode }) {
  return (
    <>
      <SiteHeader isLandingPage={false} hasSignInActions={false} />
      <main className="account-frame">
        <div className="account-frame__card">{children}</div>
      </main>
      <SiteFooter />
    </>
  );
}
