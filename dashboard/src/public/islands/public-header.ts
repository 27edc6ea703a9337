/**
 * The prerendered header's behaviour: the mobile menu (toggle, Escape, outside click, closes when
 * the window grows past the breakpoint), the scrolled shadow, and the signed-in creator's
 * Dashboard link in place of Sign In and Sign Up.
 */
import { APP_PATHS } from '@dropsite/shared/app-routes';
import { MOBILE_BREAKPOINT_PX } from '@dropsite/shared/constants';

interface TSessionReply {
  creator?: { name?: string | null; email?: string } | null;
}

export function mount(header: HTMLElement): void {
  const button = header.querySelector<HTMLButtonElement>('[data-menu-button]');
  const drawer = header.querySelector<HTMLElement>('.site-header__drawer');
  if (button && drawer) wireMenu(header, button, drawer);

  const onScroll = () => header.toggleAttribute('data-scrolled', window.scrollY > 4 || button?.getAttribute('aria-expanded') === 'true');
  onScroll();
  window.addEventListener('scroll', onScroll, { passive: true });

  void showAccount(header);
}

function wireMenu(header: HTMLElement, button: HTMLButtonElement, drawer: HTMLElement) {
  const setOpen = (open: boolean) => {
    button.setAttribute('aria-expanded', String(open));
    drawer.toggleAttribute('data-open', open);
    drawer.inert = !open;
    header.toggleAttribute('data-scrolled', open || window.scrollY > 4);
    for (const icon of button.querySelectorAll<HTMLElement>('[data-when]')) icon.hidden = (icon.dataset.when === 'open') !== open;
  };
  button.addEventListener('click', () => setOpen(button.getAttribute('aria-expanded') !== 'true'));
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || button.getAttribute('aria-expanded') !== 'true') return;
    setOpen(false);
    button.focus();
  });
  document.addEventListener('pointerdown', (event) => {
    if (button.getAttribute('aria-expanded') === 'true' && !header.contains(event.target as Node)) setOpen(false);
  });
  const wide = window.matchMedia(`(min-width: ${MOBILE_BREAKPOINT_PX}px)`);
  wide.addEventListener('change', () => wide.matches && setOpen(false));
  for (const link of drawer.querySelectorAll('a')) link.addEventListener('click', () => setOpen(false));
}

/** Asks who is signed in; a signed-in creator gets Dashboard and Account instead of Sign In and Sign Up. */
async function showAccount(header: HTMLElement) {
  let reply: TSessionReply;
  try {
    const response = await fetch('/api/auth/session', { credentials: 'same-origin', headers: { Accept: 'application/json' } });
    if (!response.ok) return;
    reply = (await response.json()) as TSessionReply;
  } catch {
    return;
  }
  const creator = reply.creator;
  if (!creator) return;
  const account = header.querySelector<HTMLElement>('[data-account]');
  if (account) {
    account.dataset.state = 'signed-in';
    account.replaceChildren(link('site-header__link', APP_PATHS.dashboard, 'Dashboard'), link('button button--secondary site-header__sign-up', APP_PATHS.account, 'Account'));
  }
  const drawerAccount = header.querySelector<HTMLElement>('[data-account-drawer]');
  drawerAccount?.replaceChildren(
    link('button button--secondary button--large', APP_PATHS.account, 'Account'),
    link('button button--primary button--large', APP_PATHS.dashboard, 'Dashboard'),
  );
}

function link(className: string, href: string, text: string): HTMLAnchorElement {
  const a = document.createElement('a');
  a.className = className;
  a.href = href;
  a.textContent = text;
  return a;
}
