import { useEffect, useId, useRef, useState } from 'react';
import { MOBILE_BREAKPOINT_PX } from '@dropsite/shared';
import { CloseIcon, MenuIcon } from './icons.tsx';
import { Logo } from './logo.tsx';
import { NotificationBell } from '../engagement/notification-bell.tsx';
import './site-header.css';

interface TSiteHeaderProps {
  /** On the landing page the section links stay in-page; elsewhere they lead back to it. */
  isLandingPage: boolean;
}

export function SiteHeader({ isLandingPage }: TSiteHeaderProps) {
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
          <ul role="list">
            {links.map((link) => (
              <li key={link.href}>
                <a className="site-header__link" href={link.href}>
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <NotificationBell />
        <button ref={menuButton} type="button" className="site-header__menu-button" aria-expanded={isMenuOpen} aria-controls={menuId} onClick={() => setMenuOpen((open) => !open)}>
          {isMenuOpen ? <CloseIcon /> : <MenuIcon />}
          <span>Menu</span>
        </button>
      </div>
      <nav id={menuId} className="site-header__drawer" aria-label="Main" data-open={isMenuOpen ? '' : undefined} inert={!isMenuOpen}>
        <div className="container">
          <ul role="list">
            {links.map((link) => (
              <li key={link.href}>
                <a className="site-header__drawer-link" href={link.href} onClick={() => setMenuOpen(false)}>
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </div>
      </nav>
    </header>
  );
}
