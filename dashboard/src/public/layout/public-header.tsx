import { CloseIcon, MenuIcon } from '../../ui/icons.tsx';
import { Logo } from '../../ui/logo.tsx';
import { signInHref } from '../../auth/auth-paths.ts';
import { HeaderLinks } from '../../chrome/header-links.tsx';
import { SignInLinks } from '../../chrome/sign-in-links.tsx';

const LINKS = [
  { href: '/#how-it-works', label: 'How it works' },
  { href: '/templates', label: 'Templates' },
  { href: '/#pricing', label: 'Pricing' },
  { href: '/feedback', label: 'Feedback' },
] as const;

/**
 * The public header of prerendered pages (spec 2.9), in the app header's markup and classes: logo,
 * navigation, Sign In and Sign Up (links to /sign-in) for a signed-out visitor. The `public-header`
 * island opens the mobile menu and, when a creator is signed in, swaps the two links for Dashboard.
 */
export function PublicHeader({ currentPath }: { currentPath: string }) {
  const signIn = signInHref('sign-in', currentPath);
  const signUp = signInHref('sign-up', currentPath);
  return (
    <header className="site-header" data-island="public-header">
      <div className="site-header__bar container">
        <Logo />
        <nav className="site-header__nav" aria-label="Main">
          <HeaderLinks links={LINKS} linkClassName="site-header__link" currentPath={currentPath} />
        </nav>
        <div className="site-header__actions">
          <div className="site-header__account" data-state="signed-out" data-account>
            <SignInLinks place="bar" signInHref={signIn} signUpHref={signUp} />
          </div>
        </div>
        <button type="button" className="site-header__menu-button" aria-expanded="false" aria-controls="public-menu" data-menu-button>
          <span data-when="closed">
            <MenuIcon />
          </span>
          <span data-when="open" hidden>
            <CloseIcon />
          </span>
          <span>Menu</span>
        </button>
      </div>
      <nav id="public-menu" className="site-header__drawer" aria-label="Main" inert>
        <div className="container">
          <HeaderLinks links={LINKS} linkClassName="site-header__drawer-link" />
          <div className="site-header__drawer-auth" data-account-drawer>
            <SignInLinks place="drawer" signInHref={signIn} signUpHref={signUp} />
          </div>
        </div>
      </nav>
    </header>
  );
}
