import { describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { load } from 'cheerio';
import type { TCreatorProject, TProjectFileDetails } from '@dropsite/shared';
import { AnalyticsPanel } from './analytics-panel.tsx';
import { FileList } from './file-list.tsx';
import { ProjectCard } from './project-card.tsx';
import { Tabs } from './tabs.tsx';

const render = (element: Parameters<typeof renderToStaticMarkup>[0]) => load(renderToStaticMarkup(element));

const project: TCreatorProject = {
  id: 'pppppppppppppppp',
  title: 'Brand <Refresh>',
  description: 'Selects for review',
  slug: 'brand-refresh-1',
  url: 'http://localhost:3000/brand-refresh-1',
  status: 'building',
  created_at: '2026-11-20T10:00:00.000Z',
  expires_at: null,
  has_password: false,
  template: 'universal',
  thumbnail_url: '/api/files/f1?mode=preview&size=300',
  settings: { enable_favorites: true, enable_comments: true, enable_approvals: true },
  favorites_count: 3,
  comments_count: 2,
  approvals_count: 1,
  views_count: 1200,
  downloads_count: 4,
  file_count: 10,
  approved_count: 2,
  changes_requested_count: 1,
  unreviewed_files_count: 7,
  publishedBy: { name: 'Mara' },
};

const file: TProjectFileDetails = {
  id: 'ffffffffffffffff',
  name: 'logo-v2.jpg',
  type: 'image/jpeg',
  kind: 'image',
  size: 3500,
  uploadedAt: '2026-11-20T10:00:00.000Z',
  thumbnailUrl: null,
  favorites: [{ id: 'fav1', userName: '', userEmail: 'ana@studio.example', createdAt: '2026-11-20T11:00:00.000Z' }],
  comments: [
    {
      id: 'c1',
      userName: 'User 6rKg',
      userEmail: '',
      commentText: '<b>higher?</b>',
      createdAt: '2026-11-20T11:00:00.000Z',
      isCreator: false,
      replies: [{ id: 'c2', userName: 'Mara', userEmail: '', commentText: 'Done.', createdAt: '2026-11-20T12:00:00.000Z', isCreator: true, replies: [] }],
    },
  ],
  approvals: [],
  totals: { favorites: 1, comments: 2, approvals: { approved: 0, rejected: 0, pending: 1 } },
  analytics: { views: 7, downloads: 1 },
};

describe('dashboard views', () => {
  it('renders tabs with one tab stop and the selected panel labelled by its tab', () => {
    const $ = render(
      createElement(Tabs, {
        label: 'Project',
        tabs: [
          { id: 'overview', label: 'Overview', render: () => 'first' },
          { id: 'files', label: 'Files', render: () => 'second' },
        ],
      }),
    );
    expect($('[role="tablist"]').attr('aria-label')).toBe('Project');
    expect(
      $('[role="tab"]')
        .map((_i, tab) => `${$(tab).text()}:${$(tab).attr('aria-selected')}:${$(tab).attr('tabindex')}`)
        .get(),
    ).toEqual(['Overview:true:0', 'Files:false:-1']);
    const panel = $('[role="tabpanel"]');
    expect(panel.text()).toBe('first');
    expect(panel.attr('aria-labelledby')).toBe($('[role="tab"]').first().attr('id'));
  });

  it('says who published a site in a team workspace, and not in a personal one', () => {
    expect(render(createElement(ProjectCard, { project, showPublisher: true }))('.dash-card__date').text()).toMatch(/^Created .+ by Mara$/);
    expect(render(createElement(ProjectCard, { project }))('.dash-card__date').text()).not.toContain('Mara');
  });

  it('renders a project card: escaped title, status, its counts with approvals and change requests apart, and its three actions', () => {
    const $ = render(createElement(ProjectCard, { project }));
    expect($('.dash-card__title').text()).toBe('Brand <Refresh>');
    expect($('.dash-card__status').text()).toBe('Building…');
    expect(
      $('.dash-counts__item')
        .map((_i, item) => $(item).text())
        .get(),
    ).toEqual(['3Favourites', '2Comments', '1,200Views', '2Approved', '1Changes Requested', '7Pending']);
    // No password and no expiry: no badges.
    expect($('.dash-card__badges')).toHaveLength(0);
    expect($('a.button').first().attr('href')).toBe('/dashboard/projects/pppppppppppppppp');
    expect($('button[aria-expanded="false"]').text()).toBe('Show Analytics');
    const site = $('a[target="_blank"]');
    expect([site.attr('href'), site.attr('rel')]).toEqual([project.url, 'noopener']);
    // The thumbnail's box has its size before the picture arrives.
    expect($('.dash-card__media img').attr('width')).toBe('300');
  });

  it('shows a locked site its cover, with its password and expiry badges', () => {
    const expiresAt = new Date(Date.now() + 3 * 86_400_000 + 3_600_000).toISOString();
    const locked = { ...project, has_password: true, expires_at: expiresAt, thumbnail_url: `/api/projects/${project.id}/files/f1/thumbnail` };
    const $ = render(createElement(ProjectCard, { project: locked }));
    expect($('.dash-card__media img').attr('src')).toBe(`/api/projects/${project.id}/files/f1/thumbnail`);
    expect($('[data-testid="card-badge-password"]').text()).toBe('Password');
    expect($('[data-testid="card-badge-expiry"]').text()).toBe('Expires in 3 days');
    const expired = render(createElement(ProjectCard, { project: { ...locked, has_password: false, expires_at: '2020-01-01T00:00:00.000Z' } }));
    expect(expired('[data-testid="card-badge-password"]')).toHaveLength(0);
    expect(expired('[data-testid="card-badge-expiry"]').text()).toBe('Expired');
    expect(expired('[data-testid="card-badge-expiry"]').attr('data-expired')).toBeDefined();
  });

  it('renders a file collapsed, with its totals; comment text is text, never markup', () => {
    const $ = render(createElement(FileList, { projectId: project.id, files: [file], revision: 0, onReplied: () => {} }));
    const summary = $('.dash-file__summary');
    expect(summary.attr('aria-expanded')).toBe('false');
    expect($(`#${summary.attr('aria-controls')?.replace(/:/g, '\\:')}`).attr('hidden')).toBeDefined();
    expect(
      $('.dash-counts__item')
        .map((_i, item) => $(item).text())
        .get(),
    ).toEqual(['1Favourites', '2Comments', '7Views']);
    expect($('[data-testid="file-approval-state"]').text()).toBe('Not reviewed');
    expect($('b')).toHaveLength(0);
  });

  it("shows each file's approval state, with counts when several clients decided", () => {
    const withDecisions = (approved: number, rejected: number): TProjectFileDetails => ({
      ...file,
      id: `file-${approved}-${rejected}-000000`,
      totals: { ...file.totals, approvals: { approved, rejected, pending: approved + rejected === 0 ? 1 : 0 } },
    });
    const $ = render(
      createElement(FileList, {
        projectId: project.id,
        files: [withDecisions(1, 0), withDecisions(0, 1), withDecisions(2, 1), withDecisions(0, 0)],
        revision: 0,
        onReplied: () => {},
      }),
    );
    expect(
      $('[data-testid="file-approval-state"]')
        .map((_i, item) => `${$(item).text()}:${$(item).attr('data-tone')}`)
        .get(),
    ).toEqual(['Approved:approved', 'Changes requested:rejected', '2 approved · 1 changes requested:rejected', 'Not reviewed:pending']);
  });

  it('renders the analytics panel as loading, with the CSV link on the site’s panel only', () => {
    const site = render(createElement(AnalyticsPanel, { projectId: project.id, revision: 0, heading: 'Site analytics' }));
    expect(site('section').attr('aria-busy')).toBe('true');
    expect(site('a[download]').attr('href')).toBe('/api/projects/pppppppppppppppp/engagement.csv');
    expect(
      site('.dash-approvals__item')
        .map((_i, item) => site(item).text())
        .get(),
    ).toEqual(['– Approved', '– Changes Requested', '– Pending']);
    const ofFile = render(createElement(AnalyticsPanel, { projectId: project.id, fileId: file.id, revision: 0, heading: 'Analytics of logo-v2.jpg' }));
    expect(ofFile('a[download]')).toHaveLength(0);
  });
});
