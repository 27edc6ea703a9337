import { describe, expect, it } from 'vitest';
import { ApiRequestError, type TSendRequest } from '@dropsite/shared/browser/api-client';
import type { TProjectDetails, TProjectFileDetails } from '@dropsite/shared';
import {
  claimAnonymousProjects,
  engagementCsvPath,
  fetchActivitySince,
  fetchDailyAnalytics,
  fetchMyProjects,
  fetchPanelAnalytics,
  postCreatorReply,
} from '../../dashboard-api/dashboard-api.ts';
import { claimErrorMessage, CLAIM_FAILED_MESSAGE } from './claim-banner.tsx';
import { startActivityPoller } from './live-activity.ts';
import { formatBytes } from '@dropsite/shared';
import {
  approvalStateOf,
  averageInteractionsPerFile,
  commenterName,
  describeDay,
  expiryLabel,
  greetingFor,
  toChartColumns,
  topEngagedFiles,
  viewsToFavoritesConversion,
} from './project-insights.ts';
import { nextTabIndex } from './tabs.tsx';
import { projectIdOfPath, resolveAppPage } from '@dropsite/shared/app-routes';

/** A fetch stand-in: answers each path from the table and records what was sent. */
function fakeServer(replies: Record<string, { status?: number; body: unknown }>) {
  const sent: { path: string; init: RequestInit }[] = [];
  const send: TSendRequest = async (path, init) => {
    sent.push({ path, init });
    const reply = replies[path];
    if (!reply) return new Response('{"success":false,"error":"Not found"}', { status: 404 });
    return new Response(JSON.stringify(reply.body), { status: reply.status ?? 200 });
  };
  return { send, sent };
}

const creator = { id: 'c1', email: 'mara@studio.example', name: 'Mara', avatarUrl: '', emailVerified: true, createdAt: '2026-11-01T00:00:00.000Z' };
const project = {
  id: 'p'.repeat(16),
  title: 'Brand Refresh',
  description: 'Selects',
  slug: 'brand-refresh-1',
  url: 'http://localhost/brand-refresh-1',
  status: 'live',
  created_at: '2026-11-20T10:00:00.000Z',
  expires_at: null,
  has_password: false,
  template: 'universal',
  thumbnail_url: null,
  settings: { enable_favorites: true, enable_comments: true, enable_approvals: false },
  favorites_count: 2,
  comments_count: 1,
  approvals_count: 0,
  approved_count: 0,
  changes_requested_count: 0,
  unreviewed_files_count: 2,
  views_count: 9,
  downloads_count: 1,
  file_count: 2,
};

function file(name: string, counts: { favorites: number; comments: number; views: number }): TProjectFileDetails {
  return {
    id: `${name}-id-0123456789`,
    name,
    type: 'image/jpeg',
    kind: 'image',
    size: 1000,
    uploadedAt: '2026-11-20T10:00:00.000Z',
    thumbnailUrl: null,
    favorites: [],
    comments: [],
    approvals: [],
    totals: { favorites: counts.favorites, comments: counts.comments, approvals: { approved: 0, rejected: 0, pending: 0 } },
    analytics: { views: counts.views, downloads: 0 },
  };
}

function details(totals: Partial<TProjectDetails['totals']>, files: TProjectFileDetails[] = []): TProjectDetails {
  return {
    id: project.id,
    title: 'Brand Refresh',
    description: '',
    created_at: project.created_at,
    slug: project.slug,
    url: project.url,
    totals: {
      totalFiles: 0,
      uniqueUsers: 0,
      totalFavorites: 0,
      totalComments: 0,
      totalViews: 0,
      totalDownloads: 0,
      totalApprovals: { approved: 0, rejected: 0, pending: 0 },
      ...totals,
    },
    files,
  };
}

describe('dashboard calls', () => {
  it('reads the creator and their projects, and refuses a reply of another shape', async () => {
    const { send } = fakeServer({ '/api/creators/me/projects': { body: { success: true, creator, projects: [project] } } });
    expect((await fetchMyProjects(send)).projects.map((p) => p.title)).toEqual(['Brand Refresh']);
    const broken = fakeServer({ '/api/creators/me/projects': { body: { success: true, projects: 'none' } } });
    await expect(fetchMyProjects(broken.send)).rejects.toMatchObject({ status: 502 });
  });

  it('asks for a file’s analytics and chart by query, and the activity since the last answer', async () => {
    const analytics = { views: 3, downloads: 1, favorites: 1, comments: 0, approvals: { approved: 0, rejected: 0, pending: 0 }, uniqueVisitors: 2, recentActivity: [] };
    const { send, sent } = fakeServer({
      '/api/analytics?projectId=pppppppppppppppp&detailed=true&fileId=f1': { body: { success: true, projectId: project.id, fileId: 'f1', analytics } },
      '/api/projects/pppppppppppppppp/analytics/daily?days=7&fileId=f1': {
        body: { success: true, days: [{ date: '2026-11-26', views: 3, uniqueVisitors: 2, downloads: 1 }], totals: { views: 3, uniqueVisitors: 2, downloads: 1 } },
      },
      '/api/projects/pppppppppppppppp/activity?since=2026-11-26T10%3A00%3A00.000Z': { body: { success: true, activity: [], now: '2026-11-26T10:00:15.000Z' } },
    });
    expect(await fetchPanelAnalytics({ projectId: project.id, fileId: 'f1' }, send)).toEqual(analytics);
    expect((await fetchDailyAnalytics({ projectId: project.id, fileId: 'f1', days: 7 }, send)).totals.views).toBe(3);
    expect((await fetchActivitySince(project.id, '2026-11-26T10:00:00.000Z', send)).now).toBe('2026-11-26T10:00:15.000Z');
    expect(sent.every((request) => request.init.method === 'GET')).toBe(true);
    expect(engagementCsvPath(project.id)).toBe('/api/projects/pppppppppppppppp/engagement.csv');
  });

  it('posts a reply and a claim as JSON', async () => {
    const reply = { id: 'r1', userName: 'Mara', userEmail: '', commentText: 'Thanks!', createdAt: '2026-11-26T10:00:00.000Z', isCreator: true, replies: [] };
    const { send, sent } = fakeServer({
      '/api/projects/pppppppppppppppp/comments/c1/replies': { status: 201, body: { success: true, comment: reply } },
      '/api/creators/claim': { body: { success: true, claimed: 2, projects: [] } },
    });
    await postCreatorReply({ projectId: project.id, commentId: 'c1', text: 'Thanks!' }, send);
    expect(await claimAnonymousProjects('anon-1', send)).toBe(2);
    expect(sent.map((request) => [request.init.method, request.init.body])).toEqual([
      ['POST', '{"text":"Thanks!"}'],
      ['POST', '{"anonymousSessionId":"anon-1"}'],
    ]);
  });

  it('tells a signed-out claim from a failed one, in the spec’s words', () => {
    expect(claimErrorMessage(new ApiRequestError('Authentication required. Please sign in and try again.', 401))).toBe('Authentication required. Please sign in and try again.');
    expect(claimErrorMessage(new ApiRequestError('Request failed (500)', 500))).toBe(CLAIM_FAILED_MESSAGE);
    expect(claimErrorMessage(new ApiRequestError('No connection', 0))).toBe('Failed to claim sites. Please try again.');
  });
});

describe('project insights', () => {
  it('names a commenter by name, else User and the last 4 characters of their email', () => {
    expect(commenterName({ userName: 'Ana', userEmail: 'ana@x.example' })).toBe('Ana');
    expect(commenterName({ userName: '', userEmail: 'ana@x.example' })).toBe('User mple');
    expect(commenterName({ userName: ' ', userEmail: '' })).toBe('User');
  });

  it('ranks the top 5 files by favourites + comments + views, leaving untouched files out', () => {
    const files = [
      file('a.jpg', { favorites: 1, comments: 0, views: 1 }),
      file('b.jpg', { favorites: 0, comments: 0, views: 0 }),
      file('c.jpg', { favorites: 3, comments: 2, views: 10 }),
      ...['d', 'e', 'f', 'g'].map((name) => file(`${name}.jpg`, { favorites: 0, comments: 1, views: 4 })),
    ];
    expect(topEngagedFiles(files).map((entry) => [entry.file.name, entry.score])).toEqual([
      ['c.jpg', 15],
      ['d.jpg', 5],
      ['e.jpg', 5],
      ['f.jpg', 5],
      ['g.jpg', 5],
    ]);
  });

  it('works out interactions per file and the views-to-favourites conversion, zero before any', () => {
    expect(averageInteractionsPerFile(details({ totalFiles: 3, totalFavorites: 2, totalComments: 1, totalApprovals: { approved: 1, rejected: 0, pending: 4 } }))).toBe(1.3);
    expect(averageInteractionsPerFile(details({}))).toBe(0);
    expect(viewsToFavoritesConversion(details({ totalViews: 8, totalFavorites: 1 }))).toBe(12.5);
    expect(viewsToFavoritesConversion(details({ totalViews: 0, totalFavorites: 0 }))).toBe(0);
  });

  it('turns the days into uPlot columns at UTC midnight and reads a day aloud', () => {
    const days = [
      { date: '2026-11-25', views: 1, uniqueVisitors: 1, downloads: 0 },
      { date: '2026-11-26', views: 4, uniqueVisitors: 2, downloads: 1 },
    ];
    expect(toChartColumns(days)).toEqual([
      [Date.UTC(2026, 10, 25) / 1000, Date.UTC(2026, 10, 26) / 1000],
      [1, 4],
      [1, 2],
      [0, 1],
    ]);
    expect(describeDay(days[1]!)).toBe('Nov 26: 4 views, 2 unique visitors, 1 download');
    // One size format everywhere: the shared one the wizard and the visitor site use.
    expect(formatBytes(2_500_000)).toBe('2.38 MB');
  });

  it('says Welcome back only to an account that is not on its first visit', () => {
    const now = Date.parse('2026-12-07T10:00:00Z');
    expect(greetingFor('Ada', '2026-12-07T09:59:30Z', now)).toBe('Welcome, Ada');
    expect(greetingFor('Ada', '2026-12-07T09:00:01Z', now)).toBe('Welcome, Ada');
    expect(greetingFor('Ada', '2026-12-07T09:00:00Z', now)).toBe('Welcome back, Ada');
    expect(greetingFor('Ada', '2026-11-01T09:00:00Z', now)).toBe('Welcome back, Ada');
    expect(greetingFor('Ada', 'not a date', now)).toBe('Welcome back, Ada');
  });
});

describe('tabs', () => {
  it('moves with the arrows (wrapping), Home and End, and ignores other keys', () => {
    expect(nextTabIndex('ArrowRight', 2, 3)).toBe(0);
    expect(nextTabIndex('ArrowLeft', 0, 3)).toBe(2);
    expect(nextTabIndex('Home', 2, 3)).toBe(0);
    expect(nextTabIndex('End', 0, 3)).toBe(2);
    expect(nextTabIndex('Enter', 1, 3)).toBeNull();
  });
});

describe('live activity', () => {
  function harness(answers: Array<{ activity: { type: 'view'; details: string; timestamp: string; fileId: null }[]; now: string } | Error>) {
    const asked: (string | null)[] = [];
    const news: number[] = [];
    let visible = true;
    let visibilityListener: () => void = () => {};
    let pending: (() => void) | null = null;
    let armed: () => void = () => {};
    /** Resolves when the poller next sets its timer: a poll it ran is over. */
    const nextTimer = () => new Promise<void>((resolve) => (armed = resolve));
    const poller = startActivityPoller({
      fetchSince: async (since) => {
        asked.push(since);
        const answer = answers.shift();
        if (!answer || answer instanceof Error) throw answer ?? new Error('no answer');
        return answer;
      },
      onActivity: (activity) => news.push(activity.length),
      isVisible: () => visible,
      onVisibilityChange: (listener) => {
        visibilityListener = listener;
        return () => {};
      },
      setTimer: (run) => {
        pending = run;
        armed();
        return () => {
          pending = null;
        };
      },
      startedAt: 'T0',
    });
    return {
      asked,
      news,
      poller,
      tick: async () => {
        const run = pending;
        pending = null;
        const polled = nextTimer();
        run?.();
        await polled;
      },
      nextTimer,
      hasTimer: () => pending !== null,
      setVisible: (value: boolean) => {
        visible = value;
        visibilityListener();
      },
    };
  }

  it('asks from the server’s last now, reports only answers with news, and survives a lost poll', async () => {
    const view = { type: 'view' as const, details: 'Someone viewed the site', timestamp: 'T1', fileId: null };
    const h = harness([{ activity: [], now: 'T1' }, new Error('offline'), { activity: [view, view], now: 'T3' }]);
    await h.tick();
    await h.tick();
    await h.tick();
    expect(h.asked).toEqual(['T0', 'T1', 'T1']);
    expect(h.news).toEqual([2]);
  });

  it('stops asking while the page is hidden and asks at once when it is shown again', async () => {
    const h = harness([
      { activity: [], now: 'T1' },
      { activity: [], now: 'T2' },
    ]);
    h.setVisible(false);
    expect(h.hasTimer()).toBe(false);
    const polled = h.nextTimer();
    h.setVisible(true);
    await polled;
    expect(h.asked).toEqual(['T0']);
    expect(h.hasTimer()).toBe(true);
    h.poller.stop();
    expect(h.hasTimer()).toBe(false);
  });
});

describe('dashboard routes', () => {
  it('opens the dashboard and a project by its id; anything else under /dashboard is not found', () => {
    expect(resolveAppPage('/dashboard')).toBe('dashboard');
    expect(resolveAppPage('/dashboard/')).toBe('dashboard');
    expect(resolveAppPage('/dashboard/projects/AbCdEfGh_1234-xyz')).toBe('project');
    expect(projectIdOfPath('/dashboard/projects/AbCdEfGh_1234-xyz')).toBe('AbCdEfGh_1234-xyz');
    expect(resolveAppPage('/dashboard/projects/short')).toBe('not-found');
    expect(resolveAppPage('/dashboard/projects/AbCdEfGh_1234-xyz/files')).toBe('not-found');
    expect(projectIdOfPath('/dashboard/projects/../../etc')).toBeNull();
  });
});

describe('card badges and approval states', () => {
  const now = Date.parse('2026-12-07T12:00:00.000Z');
  it('words the expiry in whole days left, and an expired site as Expired', () => {
    expect(expiryLabel({ expires_at: null }, now)).toBeNull();
    expect(expiryLabel({ expires_at: '2026-12-10T13:00:00.000Z' }, now)).toBe('Expires in 3 days');
    expect(expiryLabel({ expires_at: '2026-12-08T12:00:00.000Z' }, now)).toBe('Expires in 1 day');
    expect(expiryLabel({ expires_at: '2026-12-07T20:00:00.000Z' }, now)).toBe('Expires in less than a day');
    expect(expiryLabel({ expires_at: '2026-12-07T12:00:00.000Z' }, now)).toBe('Expired');
    expect(expiryLabel({ expires_at: 'not a date' }, now)).toBeNull();
  });

  it('names a file not reviewed until anyone decides, and counts decisions of several clients', () => {
    expect(approvalStateOf({ approved: 0, rejected: 0 })).toEqual({ label: 'Not reviewed', tone: 'pending' });
    expect(approvalStateOf({ approved: 1, rejected: 0 })).toEqual({ label: 'Approved', tone: 'approved' });
    expect(approvalStateOf({ approved: 0, rejected: 1 })).toEqual({ label: 'Changes requested', tone: 'rejected' });
    expect(approvalStateOf({ approved: 3, rejected: 0 })).toEqual({ label: '3 approved', tone: 'approved' });
    expect(approvalStateOf({ approved: 2, rejected: 1 })).toEqual({ label: '2 approved · 1 changes requested', tone: 'rejected' });
  });
});
