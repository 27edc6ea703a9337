import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { load } from 'cheerio';
import { ZSitePasswordSchema, type TManagedProject } from '@dropsite/shared';
import { BuildLine, DeleteSection, FilesSection, NotificationsSection, PasswordSection } from './manage-site.tsx';
import { Tabs } from './tabs.tsx';
import { describeBuild, detailsUpdate, fromDateTimeLocal, isSitePasswordLongEnough, lookOfProject, lookUpdate, toDateTimeLocal } from './manage-forms.ts';

const render = (element: Parameters<typeof renderToStaticMarkup>[0]) => load(renderToStaticMarkup(element));

const file = (id: string, name: string, version = 1): TManagedProject['files'][number] => ({
  id,
  name,
  type: 'image/jpeg',
  kind: 'image',
  size: 2048,
  position: 0,
  version,
  uploadedAt: '2026-11-20T10:00:00.000Z',
  replacedAt: version > 1 ? '2026-11-21T10:00:00.000Z' : null,
  thumbnailUrl: version > 1 ? `/api/files/${id}?mode=preview&size=300&v=${version}` : null,
});

const project: TManagedProject = {
  id: 'pppppppppppppppp',
  slug: 'brand-refresh-1',
  url: 'http://localhost:3000/brand-refresh-1',
  status: 'live',
  title: 'Brand <Refresh>',
  description: 'Selects',
  authorName: 'Ada',
  template: 'universal',
  theme: 'professional-light',
  style: 'professional',
  colorMode: 'auto',
  heroLayout: 'minimal',
  visitorModeToggle: false,
  settings: { enableFavorites: true, enableComments: true, enableApprovals: false, enableAnalytics: true, enableNotifications: false, notificationEmail: '' },
  accountNotificationEmail: 'ada@studio.example',
  contactInfo: { email: '', website: '', instagram: '', twitter: '', linkedin: '', github: '' },
  hasPassword: false,
  expiresAt: null,
  files: [file('f1', 'logo.jpg'), file('f2', 'poster.jpg', 3)],
  build: null,
};

const noop = () => {};

describe('settings forms: pure helpers', () => {
  it('sends only the look fields the owner changed', () => {
    const look = lookOfProject(project);
    expect(lookUpdate(project, 'universal', look)).toEqual({});
    expect(lookUpdate(project, 'client-delivery', { ...look, colorMode: 'dark', visitorModeToggle: true })).toEqual({
      template: 'client-delivery',
      colorMode: 'dark',
      visitorModeToggle: true,
    });
    expect(lookUpdate(project, 'universal', { ...look, style: 'nature', heroLayout: 'split' })).toEqual({ style: 'nature', heroLayout: 'split' });
  });

  it('round-trips a datetime-local value through an ISO instant', () => {
    const iso = new Date(2030, 4, 6, 7, 8).toISOString();
    expect(toDateTimeLocal(iso)).toBe('2030-05-06T07:08');
    expect(fromDateTimeLocal('2030-05-06T07:08')).toBe(iso);
    expect(fromDateTimeLocal('')).toBeNull();
    expect(toDateTimeLocal(null)).toBe('');
  });

  it('sends only the details the owner changed, trimmed', () => {
    expect(detailsUpdate(project, { title: 'Brand <Refresh>', description: 'Selects', authorName: 'Ada' })).toEqual({});
    expect(detailsUpdate(project, { title: '  New  ', description: 'Selects', authorName: '' })).toEqual({ title: 'New', authorName: '' });
  });

  it('describes the build while it runs and once it is done', () => {
    expect(describeBuild({ state: 'running', progress: 42.4, stage: 'Rendering' })).toBe('Updating your site: Rendering · 42%');
    expect(describeBuild({ state: 'queued', progress: 0, stage: '' })).toBe('Updating your site: Queued · 0%');
    expect(describeBuild({ state: 'succeeded', progress: 100, stage: 'Done' })).toBe('Your changes are live.');
    expect(describeBuild({ state: 'failed', progress: 30, stage: 'x' })).toContain('still shows the previous version');
  });
});

describe('settings tab views', () => {
  it('lists each file with its size, version and named Replace and Remove buttons', () => {
    const $ = render(createElement(FilesSection, { project, onApplied: noop }));
    const rows = $('.manage-file');
    expect(rows).toHaveLength(2);
    expect($('button[aria-label="Replace logo.jpg"]')).toHaveLength(1);
    expect($('button[aria-label="Remove poster.jpg"]')).toHaveLength(1);
    expect(rows.eq(1).find('.manage-file__version').text()).toBe('Version 3');
    expect(rows.eq(0).find('.manage-file__version')).toHaveLength(0);
    expect(rows.eq(1).find('img').attr('src')).toBe('/api/files/f2?mode=preview&size=300&v=3');
    expect($('button').filter((_, el) => $(el).text() === 'Add files')).toHaveLength(1);
  });

  it('offers no Remove for the last file of a site', () => {
    const $ = render(createElement(FilesSection, { project: { ...project, files: [file('f1', 'only.jpg')] }, onApplied: noop }));
    expect($('button[aria-label="Remove only.jpg"]')).toHaveLength(0);
    expect($('button[aria-label="Replace only.jpg"]')).toHaveLength(1);
  });

  it('enables Set password only for a password the server accepts: 8 characters or more', () => {
    for (const password of ['', 'a', '1234567', 'seven77']) {
      expect(isSitePasswordLongEnough(password), password).toBe(false);
      expect(ZSitePasswordSchema.safeParse(password).success, password).toBe(false);
    }
    for (const password of ['12345678', 'harper-and-cole']) {
      expect(isSitePasswordLongEnough(password), password).toBe(true);
      expect(ZSitePasswordSchema.safeParse(password).success, password).toBe(true);
    }
    const open = render(createElement(PasswordSection, { project, onApplied: noop }));
    expect(open('button[type=submit]').is(':disabled')).toBe(true);
    expect(open.text()).toContain('At least 8 characters.');
  });

  it("says notifications go to the account's confirmed email, with another address as an option", () => {
    const $ = render(createElement(NotificationsSection, { project, onApplied: noop }));
    expect($('[data-testid="notification-recipient"]').text()).toContain('Notifications go to ada@studio.example, your account’s email.');
    expect($('button:contains("Use a different address")')).toHaveLength(1);
    expect($('input[role="switch"]').attr('disabled')).toBeUndefined();
    expect($('input[type="email"]')).toHaveLength(0);
  });

  it('keeps the switch off, saying why, while there is no confirmed account email and no address', () => {
    const $ = render(createElement(NotificationsSection, { project: { ...project, accountNotificationEmail: null }, onApplied: noop }));
    const toggle = $('input[role="switch"]');
    expect(toggle.attr('disabled')).toBeDefined();
    expect(toggle.attr('checked')).toBeUndefined();
    expect($(`#${toggle.attr('aria-describedby')?.replace(/:/g, '\\:')}`).text()).toMatch(/^Confirm your account’s email/);
    expect($('input[type="email"]')).toHaveLength(1);
    // A site's own address makes the switch usable.
    const own = render(
      createElement(NotificationsSection, {
        project: { ...project, accountNotificationEmail: null, settings: { ...project.settings, enableNotifications: true, notificationEmail: 'studio@example.com' } },
        onApplied: noop,
      }),
    );
    expect(own('input[role="switch"]').attr('disabled')).toBeUndefined();
    expect(own('input[role="switch"]').attr('checked')).toBeDefined();
  });

  it('sets a password on an open site, and changes or removes one on a protected site', () => {
    const open = render(createElement(PasswordSection, { project, onApplied: noop }));
    expect(open('button[type=submit]').text()).toBe('Set password');
    expect(open('input[type=password]').attr('autocomplete')).toBe('new-password');
    expect(open.text()).not.toContain('Remove password');
    const locked = render(createElement(PasswordSection, { project: { ...project, hasPassword: true }, onApplied: noop }));
    expect(locked('button[type=submit]').text()).toBe('Change password');
    expect(locked.text()).toContain('Remove password');
    expect(locked.text()).toContain('signs out everyone who entered the old one');
  });

  it('asks before deleting: the danger zone starts with one button, the title kept as text', () => {
    const $ = render(createElement(DeleteSection, { project }));
    expect($('section[data-tone=danger] h2').text()).toBe('Delete site');
    expect($('button').text()).toBe('Delete site…');
    expect($('input')).toHaveLength(0);
  });

  it('shows the build with a progress bar while it runs, then that the change is live with a link', () => {
    const running = render(createElement(BuildLine, { build: { version: 3, state: 'running', progress: 40, stage: 'Rendering' }, following: true, url: project.url }));
    expect(running('[role=progressbar]').attr('aria-valuenow')).toBe('40');
    expect(running('[role=status]').text()).toBe('Updating your site: Rendering · 40%');
    const done = render(createElement(BuildLine, { build: { version: 3, state: 'succeeded', progress: 100, stage: 'Done' }, following: false, url: project.url }));
    expect(done('[role=progressbar]')).toHaveLength(0);
    expect(done('a').attr('href')).toBe(project.url);
    expect(renderToStaticMarkup(createElement(BuildLine, { build: null, following: false, url: project.url }))).toBe('');
  });

  it('opens the Settings tab from a link to #settings, and the first tab for anything else', () => {
    const tabs = ['overview', 'files', 'settings'].map((id) => ({ id, label: id, render: () => createElement('p', null, `${id} panel`) }));
    const linked = render(createElement(Tabs, { label: 'Project', tabs, initialId: 'settings' }));
    expect(linked('[role=tab][aria-selected=true]').text()).toBe('settings');
    expect(linked('[role=tabpanel]').text()).toBe('settings panel');
    const unknown = render(createElement(Tabs, { label: 'Project', tabs, initialId: 'nope' }));
    expect(unknown('[role=tab][aria-selected=true]').text()).toBe('overview');
  });
});
