import { lazy, Suspense, useEffect, useId, useRef, useState, type MouseEvent } from 'react';
import { APP_PATHS, MOBILE_BREAKPOINT_PX } from '@dropsite/shared';
import { ACCOUNT_PATH, BILLING_PATH, DASHBOARD_PATH, currentReturnPath, signInHref, type TAuthMode } from '../auth/auth-paths.ts';
import { useSession } from '../auth/session-store.ts';
import { signOutAndLeave } from '../auth/sign-out.ts';
import { AccountMenu } from './account-menu.tsx';
import { HeaderLinks } from './header-links.tsx';
import { SignInLinks } from './sign-in-links.tsx';
import { Avatar } from '../ui/avatar.tsx';
import { CloseIcon, MenuIcon } from '../ui/icons.tsx';
import { Logo } from '../ui/logo.tsx';
import { NotificationBell } from '../engagement/notification-bell.tsx';
import './site-header.css';

// The sign-in and sign-up forms load when one of them opens.
const AuthDialog = lazy(() => import('./auth-dialog.tsx').then((module) => ({ default: module.AuthDialog })));
// The workspace switcher (and the schemas of its replies, with zod) loads for a signed-in creator only:
// a first visit to the landing page fetches no schema code.
const WorkspaceSwitcher = lazy(() => import('./workspace-switcher.tsx').then((module) => ({ default: module.WorkspaceSwitcher })));

interface TSiteHeaderProps {
  /** On the landing page the section links stay in-page; elsewhere they lead back to it. */
  isLandingPage: boolean;
  /** The sign-in pages leave out Sign In and Sign Up: their form is the page. */
  hasSignInActions?: boolean;
}

/**
 * The public header (spec 2.9): logo, navigation, the bell, Sign In and Sign Up (modals; the links
 * lead to /sign-in when opened in a new tab) when signed out, Dashboard and the avatar menu when
 * signed in. Under 768 px all of it but the logo and the bell moves into the menu.
 */
export function SiteHeader({ isLandingPage, hasSignInActions = true }: TSiteHeaderProps) {
  const home = isLandingPage ? '' : '/';
  const links = [
    { href: `${home}#how-it-works`, label: 'How it works' },
    { href: '/templates', label: 'Templates' },
    { href: `${home}#pricing`, label: 'Pricing' },
    { href: '/feedback', label: 'Feedback' },
  ];
  const [isMenuOpen, setMenuOpen] = useState(false);
  const [isScrolled, setScrolled] = useState(false);
  const menuId = useId();
  const menuButton = useRef<HTMLButtonElement>(null);
  const header = useRef<HTMLElement>(null);
  const session = useSession();
  const [authMode, setAuthMode] = useState<TAuthMode | null>(null);
  const [isSigningOut, setSigningOut] = useState(false);
  const returnTo = currentReturnPath();

  const openAuth = (mode: TAuthMode) => (event: MouseEvent<HTMLAnchorElement>) => {
    // A modifier click opens /sign-in in a new tab as the link says; a plain click opens the modal here.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    setMenuOpen(false);
    setAuthMode(mode);
  };

  const signInLinks = {
    signInHref: signInHref('sign-in', returnTo),
    signUpHref: signInHref('sign-up', returnTo),
    onSignIn: openAuth('sign-in'),
    onSignUp: openAuth('sign-up'),
  };

  const signOut = async () => {
    setSigningOut(true);
    if (!(await signOutAndLeave())) setSigningOut(false);
  };

  useEffect(() => {
    const onScroll = () => setScrolled(window.scrollY > 4);
    onScroll();
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  useEffect(() => {
    if (!isMenuOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    const onPointerDown = (event: PointerEvent) => {
      if (!header.current?.contains(event.target as Node)) setMenuOpen(false);
    };
    const wide = window.matchMedia(`(min-width: ${MOBILE_BREAKPOINT_PX}px)`);
    const onWide = () => wide.matches && setMenuOpen(false);
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('pointerdown', onPointerDown);
    wide.addEventListener('change', onWide);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointerdown', onPointerDown);
      wide.removeEventListener('change', onWide);
    };
  }, [isMenuOpen]);

  return (
    <header ref={header} className="site-header" data-scrolled={isScrolled || isMenuOpen ? '' : undefined}>
      <div className="site-header__bar container">
        <Logo />
        <nav className="site-header__nav" aria-label="Main">
          <HeaderLinks links={links} linkClassName="site-header__link" />
        </nav>
        <div className="site-header__actions">
          <NotificationBell />
          {(hasSignInActions || session.status === 'signed-in') && (
            <div className="site-header__account" data-state={session.status}>
              {session.status === 'signed-in' ? (
                <>
                  <Suspense fallback={null}>
                    <WorkspaceSwitcher place="bar" />
                  </Suspense>
                  <a className="site-header__link" href={DASHBOARD_PATH}>
                    Dashboard
                  </a>
                  <AccountMenu creator={session.creator} />
                </>
              ) : session.status === 'loading' ? null : (
                <SignInLinks place="bar" {...signInLinks} />
              )}
            </div>
          )}
        </div>
        <button ref={menuButton} type="button" className="site-header__menu-button" aria-expanded={isMenuOpen} aria-controls={menuId} onClick={() => setMenuOpen((open) => !open)}>
          {isMenuOpen ? <CloseIcon /> : <MenuIcon />}
          <span>Menu</span>
        </button>
      </div>
      <nav id={menuId} className="site-header__drawer" aria-label="Main" data-open={isMenuOpen ? '' : undefined} inert={!isMenuOpen}>
        <div className="container">
          <HeaderLinks links={links} linkClassName="site-header__drawer-link" onFollow={() => setMenuOpen(false)} />
          {session.status === 'signed-in' && (
            <div className="site-header__drawer-account">
              <div className="site-header__drawer-who">
                <Avatar creator={session.creator} size="large" />
                <div>
                  <p className="site-header__drawer-name">{session.creator.name || 'Your account'}</p>
                  <p className="site-header__drawer-email">{session.creator.email}</p>
                </div>
              </div>
              <Suspense fallback={null}>
                <WorkspaceSwitcher place="drawer" />
              </Suspense>
              <ul role="list">
                <li>
                  <a className="site-header__drawer-link" href={DASHBOARD_PATH}>
                    Dashboard
                  </a>
                </li>
                <li>
                  <a className="site-header__drawer-link" href={APP_PATHS.members}>
                    Members
                  </a>
                </li>
                <li>
                  <a className="site-header__drawer-link" href={ACCOUNT_PATH}>
                    Account
                  </a>
                </li>
                <li>
                  <a className="site-header__drawer-link" href={BILLING_PATH}>
                    Billing
                  </a>
                </li>
                <li>
                  <button type="button" className="site-header__drawer-link" onClick={() => void signOut()} disabled={isSigningOut}>
                    {isSigningOut ? 'Signing out...' : 'Sign out'}
                  </button>
                </li>
              </ul>
            </div>
          )}
          {hasSignInActions && (session.status === 'signed-out' || session.status === 'error') && (
            <div className="site-header__drawer-auth">
              <SignInLinks place="drawer" {...signInLinks} />
            </div>
          )}
        </div>
      </nav>
      {authMode && (
        <Suspense fallback={null}>
          <AuthDialog mode={authMode} onClose={() => setAuthMode(null)} />
        </Suspense>
      )}
    </header>
  );
}
