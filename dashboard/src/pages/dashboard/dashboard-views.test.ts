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
  file_count: 2,
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
  totals: { favorites: 1, comments: 2, approvals: { approved: 0, rejected: 0, pending: 0 } },
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

  it('renders a project card: escaped title, status, the four counts and its three actions', () => {
    const $ = render(createElement(ProjectCard, { project }));
    expect($('.dash-card__title').text()).toBe('Brand <Refresh>');
    expect($('.dash-card__status').text()).toBe('Building…');
    expect(
      $('.dash-counts__item')
        .map((_i, item) => $(item).text())
        .get(),
    ).toEqual(['3Favourites', '2Comments', '1Approvals', '1,200Views']);
    expect($('a.button').first().attr('href')).toBe('/dashboard/projects/pppppppppppppppp');
    expect($('button[aria-expanded="false"]').text()).toBe('Show Analytics');
    const site = $('a[target="_blank"]');
    expect([site.attr('href'), site.attr('rel')]).toEqual([project.url, 'noopener']);
    // The thumbnail's box has its size before the picture arrives.
    expect($('.dash-card__media img').attr('width')).toBe('300');
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
    ).toEqual(['1Favourites', '2Comments', '0Approved', '7Views']);
    expect($('b')).toHaveLength(0);
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
