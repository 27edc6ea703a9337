import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { load } from 'cheerio';
import { ZSitePasswordSchema, type TManagedProject } from '@dropsite/shared';
import { DeleteSection } from './delete-section.tsx';
import { FilesSection } from './files-section.tsx';
import { BuildLine } from './index.tsx';
import { SettingsForm } from './settings-form.tsx';
import { Tabs } from '../tabs.tsx';
import { describeBuild, fromDateTimeLocal, isSitePasswordLongEnough, lookOfProject, lookUpdate, settingsFormOf, settingsUpdate, toDateTimeLocal } from '../manage-forms.ts';

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

  it('sends in one update only what the owner changed, trimmed', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    const form = settingsFormOf(project);
    expect(settingsUpdate(project, form, now)).toEqual({ update: {} });
    expect(settingsUpdate(project, { ...form, title: '  New  ', authorName: '' }, now)).toEqual({ update: { title: 'New', authorName: '' } });
    const many = settingsUpdate(
      project,
      { ...form, look: { ...form.look, heroLayout: 'split' }, enableApprovals: true, notificationEmail: ' me@x.io ', contactInfo: { ...form.contactInfo, website: 'x.io' } },
      now,
    );
    expect(many).toEqual({
      update: { heroLayout: 'split', settings: { enableApprovals: true, notificationEmail: 'me@x.io' }, contactInfo: { ...form.contactInfo, website: 'x.io' } },
    });
    expect(settingsUpdate(project, { ...form, title: '  ' }, now)).toEqual({ error: 'Site Title is required' });
  });

  it('sets, keeps, changes and removes a password with its switch', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    const open = settingsFormOf(project);
    expect(open.isPasswordOn).toBe(false);
    expect(settingsUpdate(project, { ...open, isPasswordOn: true }, now)).toEqual({ error: 'Password must be at least 8 characters' });
    expect(settingsUpdate(project, { ...open, isPasswordOn: true, password: 'open sesame' }, now)).toEqual({ update: { password: 'open sesame' } });
    const locked = { ...project, hasPassword: true };
    const lockedForm = settingsFormOf(locked);
    expect(settingsUpdate(locked, lockedForm, now)).toEqual({ update: {} });
    expect(settingsUpdate(locked, { ...lockedForm, password: 'new secret 9' }, now)).toEqual({ update: { password: 'new secret 9' } });
    expect(settingsUpdate(locked, { ...lockedForm, isPasswordOn: false }, now)).toEqual({ update: { password: null } });
  });

  it('sets and removes an expiry, never one in the past', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    const form = settingsFormOf(project);
    expect(settingsUpdate(project, { ...form, expiresAt: toDateTimeLocal('2031-05-06T07:08:00.000Z') }, now)).toEqual({ update: { expiresAt: '2031-05-06T07:08:00.000Z' } });
    expect(settingsUpdate(project, { ...form, expiresAt: toDateTimeLocal('2029-05-06T07:08:00.000Z') }, now)).toEqual({ error: 'Expiry date must be in the future' });
    const expiring = { ...project, expiresAt: '2031-05-06T07:08:00.000Z' };
    expect(settingsUpdate(expiring, { ...settingsFormOf(expiring), expiresAt: '' }, now)).toEqual({ update: { expiresAt: null } });
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

  it('asks for a new password the server accepts: 8 characters or more', () => {
    for (const password of ['', 'a', '1234567', 'seven77']) {
      expect(isSitePasswordLongEnough(password), password).toBe(false);
      expect(ZSitePasswordSchema.safeParse(password).success, password).toBe(false);
    }
    for (const password of ['12345678', 'harper-and-cole']) {
      expect(isSitePasswordLongEnough(password), password).toBe(true);
      expect(ZSitePasswordSchema.safeParse(password).success, password).toBe(true);
    }
    const form = { ...settingsFormOf(project), isPasswordOn: true };
    expect(settingsUpdate(project, { ...form, password: '1234567' }, Date.now())).toEqual({ error: 'Password must be at least 8 characters' });
    expect(settingsUpdate(project, { ...form, password: '12345678' }, Date.now())).toEqual({ update: { password: '12345678' } });
  });

  it("says notifications go to the account's confirmed email, with another address as an option", () => {
    const $ = render(createElement(SettingsForm, { project, onApplied: noop }));
    expect($('[data-testid="notification-recipient"]').text()).toContain('Notifications go to ada@studio.example, your account’s email.');
    expect($('button:contains("Use a different address")')).toHaveLength(1);
    expect($('input[type="email"]').filter((_, el) => $(el).closest('.manage-recipient').length > 0)).toHaveLength(0);
  });

  it('keeps the notifications switch off, saying why, while there is no confirmed account email and no address', () => {
    const $ = render(createElement(SettingsForm, { project: { ...project, accountNotificationEmail: null }, onApplied: noop }));
    const toggle = $('button[role=switch]').filter((_, el) => $(el).closest('.manage-switch').text().includes('Send me notifications'));
    expect(toggle.attr('disabled')).toBeDefined();
    expect(toggle.attr('aria-checked')).toBe('false');
    expect($(`#${toggle.attr('aria-describedby')?.replace(/:/g, '\\:')}`).text()).toMatch(/^Confirm your account’s email/);
    // A site's own address makes the switch usable.
    const own = render(
      createElement(SettingsForm, {
        project: { ...project, accountNotificationEmail: null, settings: { ...project.settings, enableNotifications: true, notificationEmail: 'studio@example.com' } },
        onApplied: noop,
      }),
    );
    const ownToggle = own('button[role=switch]').filter((_, el) => own(el).closest('.manage-switch').text().includes('Send me notifications'));
    expect(ownToggle.attr('disabled')).toBeUndefined();
    expect(ownToggle.attr('aria-checked')).toBe('true');
  });

  it('has one Save for every setting, and the same switches as the upload wizard', () => {
    const open = render(createElement(SettingsForm, { project, onApplied: noop }));
    expect(open('form')).toHaveLength(1);
    expect(open('button[type=submit]')).toHaveLength(1);
    expect(open('button[type=submit]').text()).toBe('Save changes');
    expect(open('button[type=submit]').attr('disabled')).toBeDefined();
    // Each switch is the wizard's: a button with role switch.
    expect(open('button.switch[role=switch]')).toHaveLength(6);
    expect(open('input[role=switch]')).toHaveLength(0);
    // An open site asks for no password until its switch is on.
    expect(open('input[type=password]')).toHaveLength(0);
    const locked = render(createElement(SettingsForm, { project: { ...project, hasPassword: true }, onApplied: noop }));
    expect(locked('input[type=password]').attr('autocomplete')).toBe('new-password');
    expect(locked.text()).toContain('signs out everyone who entered the old one');
    expect(locked.text()).toContain('Leave empty to keep the current one.');
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
