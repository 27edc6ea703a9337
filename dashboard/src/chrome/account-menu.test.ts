import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { load } from 'cheerio';
import type { TCreatorPublic } from '@dropsite/shared';
import { initialsOf } from '../ui/avatar.tsx';
import { AccountMenu } from './account-menu.tsx';

const render = (element: Parameters<typeof renderToStaticMarkup>[0]) => load(renderToStaticMarkup(element));

const CREATOR: TCreatorPublic = { id: 'c_1', email: 'mara@studio.com', name: 'Mara <Lind>', avatarUrl: '', emailVerified: true, createdAt: '2026-11-26T09:00:00.000Z' };

describe('the avatar menu', () => {
  it('is a closed menu button naming whose account it is, with Dashboard, Account and Sign out', () => {
    const $ = render(createElement(AccountMenu, { creator: CREATOR }));
    const button = $('button[aria-haspopup=menu]');
    expect(button.attr('aria-expanded')).toBe('false');
    expect(button.attr('aria-label')).toBe('Account menu for Mara <Lind>');
    // The initials are drawn from an attribute: no visible words the button's name lacks.
    expect(button.text()).toBe('');
    expect(button.find('.avatar').attr('data-initials')).toBe('ML');
    expect(button.find('.avatar').attr('aria-hidden')).toBe('true');
    const menu = $(`#${button.attr('aria-controls')}`);
    expect(menu.attr('role')).toBe('menu');
    expect(menu.attr('hidden')).toBeDefined();
    expect(
      menu
        .find('[role=menuitem]')
        .map((_, item) => $(item).text())
        .get(),
    ).toEqual(['Dashboard', 'Account', 'Billing', 'Sign out']);
    expect(
      menu
        .find('a[role=menuitem]')
        .map((_, item) => $(item).attr('href'))
        .get(),
    ).toEqual(['/dashboard', '/account', '/billing']);
    // The name is text, never markup.
    expect(menu.find('.account-menu__name').html()).toBe('Mara &lt;Lind&gt;');
  });

  it('shows up to two initials, of the address when there is no name', () => {
    expect(initialsOf({ name: 'Mara Lind Holm', email: 'x@y.z' })).toBe('ML');
    expect(initialsOf({ name: '  élise ', email: 'x@y.z' })).toBe('É');
    expect(initialsOf({ name: '', email: 'noor@studio.com' })).toBe('N');
  });
});
