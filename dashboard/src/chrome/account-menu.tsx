/**
 * The signed-in creator's avatar and its menu (spec 2.9): who is signed in, Dashboard, Account,
 * Billing and Sign out. A menu button: arrows move between the items, Escape closes it and returns focus,
 * a click elsewhere or Tab away closes it.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import type { TCreatorPublic } from '@dropsite/shared';
import { ACCOUNT_PATH, BILLING_PATH, DASHBOARD_PATH } from '../auth/auth-paths.ts';
import { signOutAndLeave } from '../auth/sign-out.ts';
import { Avatar } from '../ui/avatar.tsx';

function menuItems(menu: HTMLElement | null): HTMLElement[] {
  return [...(menu?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])];
}

export function AccountMenu({ creator }: { creator: TCreatorPublic }) {
  const [isOpen, setOpen] = useState(false);
  const [isSigningOut, setSigningOut] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!isOpen) return;
    menuItems(menu.current)[0]?.focus();
    const onPointerDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [isOpen]);

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const all = menuItems(menu.current);
    const at = all.indexOf(document.activeElement as HTMLElement);
    const move = (to: number) => {
      event.preventDefault();
      all[(to + all.length) % all.length]?.focus();
    };
    if (event.key === 'ArrowDown') move(at + 1);
    else if (event.key === 'ArrowUp') move(at - 1);
    else if (event.key === 'Home') move(0);
    else if (event.key === 'End') move(all.length - 1);
    else if (event.key === 'Escape') {
      event.preventDefault();
      setOpen(false);
      button.current?.focus();
    } else if (event.key === 'Tab') setOpen(false);
  };

  const signOut = async () => {
    setSigningOut(true);
    if (!(await signOutAndLeave())) setSigningOut(false);
  };

  return (
    <div ref={root} className="account-menu">
      <button
        ref={button}
        type="button"
        className="account-menu__button ui-icon-button"
        aria-haspopup="menu"
        aria-expanded={isOpen}
        aria-controls={menuId}
        aria-label={`Account menu for ${creator.name || creator.email}`}
        onClick={() => setOpen((open) => !open)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown' && !isOpen) {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        <Avatar creator={creator} />
      </button>
      <div id={menuId} ref={menu} className="account-menu__panel" role="menu" aria-label="Account" hidden={!isOpen} onKeyDown={onMenuKeyDown}>
        <div className="account-menu__who">
          <Avatar creator={creator} size="large" />
          <div>
            <p className="account-menu__name">{creator.name || 'Your account'}</p>
            <p className="account-menu__email">{creator.email}</p>
          </div>
        </div>
        <a role="menuitem" tabIndex={-1} className="account-menu__item" href={DASHBOARD_PATH}>
          Dashboard
        </a>
        <a role="menuitem" tabIndex={-1} className="account-menu__item" href={ACCOUNT_PATH}>
          Account
        </a>
        <a role="menuitem" tabIndex={-1} className="account-menu__item" href={BILLING_PATH}>
          Billing
        </a>
        <button role="menuitem" tabIndex={-1} type="button" className="account-menu__item" onClick={() => void signOut()} disabled={isSigningOut}>
          {isSigningOut ? 'Signing out...' : 'Sign out'}
        </button>
      </div>
    </div>
  );
}
