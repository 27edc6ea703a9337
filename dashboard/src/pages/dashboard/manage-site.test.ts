import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { load } from 'cheerio';
import type { TManagedProject } from '@dropsite/shared';
import { BuildLine, DeleteSection, FilesSection, SettingsForm } from './manage-site.tsx';
import { Tabs } from './tabs.tsx';
import { THEME_OPTIONS, describeBuild, fromDateTimeLocal, settingsFormOf, settingsUpdate, themeLabel, toDateTimeLocal } from './manage-forms.ts';

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
  heroLayout: null,
  settings: { enableFavorites: true, enableComments: true, enableApprovals: false, enableAnalytics: true, enableNotifications: false, notificationEmail: '' },
  contactInfo: { email: '', website: '', twitter: '', linkedin: '', github: '' },
  hasPassword: false,
  expiresAt: null,
  files: [file('f1', 'logo.jpg'), file('f2', 'poster.jpg', 3)],
  build: null,
};

const noop = () => {};

describe('settings forms: pure helpers', () => {
  it('names the ten themes by style and mode', () => {
    expect(THEME_OPTIONS).toHaveLength(10);
    expect(themeLabel('nature-dark')).toBe('Nature · Dark');
    expect(themeLabel('odd')).toBe('odd');
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
      { ...form, heroLayout: 'split', enableApprovals: true, notificationEmail: ' me@x.io ', contactInfo: { ...form.contactInfo, website: 'x.io' } },
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

  it('has one Save for every setting, and the same switches as the upload wizard', () => {
    const open = render(createElement(SettingsForm, { project, onApplied: noop }));
    expect(open('form')).toHaveLength(1);
    expect(open('button[type=submit]')).toHaveLength(1);
    expect(open('button[type=submit]').text()).toBe('Save changes');
    expect(open('button[type=submit]').attr('disabled')).toBeDefined();
    // Each switch is the wizard's: a button with role switch.
    expect(open('button.switch[role=switch]')).toHaveLength(6);
    expect(open('input[type=checkbox]')).toHaveLength(0);
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
