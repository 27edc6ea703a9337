import { load } from 'cheerio';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { permissionsOf, type TWorkspaceList, type TWorkspaceRole, type TWorkspaceSummary } from '@dropsite/shared';
import type { TSendRequest } from '@dropsite/shared/browser/api-client';
import { createWorkspaceStore, permissionCheck } from '../workspaces/workspace-store.ts';
import { nextMenuIndex, pathAfterSwitch, WorkspaceMenu } from './workspace-switcher.tsx';

function workspace(id: string, name: string, role: TWorkspaceRole, personal = false): TWorkspaceSummary {
  return { id, name, personal, role, memberCount: personal ? 1 : 3, permissions: permissionsOf(role) };
}

const personal = workspace('c1', 'Mara Lind', 'owner', true);
const studio = workspace('w2', 'Northlight Studio', 'editor');
const list = (currentWorkspaceId: string, workspaces = [personal, studio]): TWorkspaceList => ({ currentWorkspaceId, workspaces });

/** A fetch stand-in answering `METHOD path` from the table, recording each request in order. */
function fakeServer(replies: Record<string, { status?: number; body: unknown }>) {
  const sent: { method: string; path: string; body: unknown }[] = [];
  const send: TSendRequest = async (path, init) => {
    const method = init.method ?? 'GET';
    sent.push({ method, path, body: typeof init.body === 'string' ? JSON.parse(init.body) : null });
    const reply = replies[`${method} ${path}`];
    if (!reply) return new Response('{"success":false,"error":"Not found"}', { status: 404 });
    return new Response(JSON.stringify(reply.body), { status: reply.status ?? 200 });
  };
  return { send, sent };
}

function render(props: { list: TWorkspaceList; open?: boolean }) {
  return load(renderToStaticMarkup(createElement(WorkspaceMenu, { list: props.list, place: 'bar', onSwitch: async () => undefined, initiallyOpen: props.open ?? false })));
}

describe('the workspace switcher', () => {
  it('switching asks the server first (PUT /api/workspaces/current), then the pages load again for the new workspace', async () => {
    const server = fakeServer({ 'GET /api/workspaces': { body: list('c1') }, 'PUT /api/workspaces/current': { body: list('w2') } });
    const store = createWorkspaceStore(server.send);
    const reloads: { workspace: string; requestsSoFar: string[] }[] = [];
    store.onSwitch((current) => reloads.push({ workspace: current.name, requestsSoFar: server.sent.map((r) => `${r.method} ${r.path}`) }));
    await store.refresh();

    await store.switchTo('w2');

    expect(server.sent.at(-1)).toEqual({ method: 'PUT', path: '/api/workspaces/current', body: { workspaceId: 'w2' } });
    // One reload, after the server's answer, for the workspace it made current.
    expect(reloads).toEqual([{ workspace: 'Northlight Studio', requestsSoFar: ['GET /api/workspaces', 'PUT /api/workspaces/current'] }]);
    const snapshot = store.getSnapshot();
    expect(snapshot.status === 'ready' && snapshot.list.currentWorkspaceId).toBe('w2');
  });

  it('a refused switch changes nothing: no reload, and the workspace shown stays', async () => {
    const server = fakeServer({
      'GET /api/workspaces': { body: list('c1') },
      'PUT /api/workspaces/current': { status: 404, body: { success: false, error: 'Workspace not found' } },
    });
    const store = createWorkspaceStore(server.send);
    let reloads = 0;
    store.onSwitch(() => reloads++);
    await store.refresh();

    await expect(store.switchTo('w2')).rejects.toThrow('Workspace not found');
    expect(reloads).toBe(0);
    const snapshot = store.getSnapshot();
    expect(snapshot.status === 'ready' && snapshot.list.currentWorkspaceId).toBe('c1');
  });

  it('Create workspace makes it (POST /api/workspaces) and then switches to it', async () => {
    const made = workspace('w3', 'Client Work', 'owner');
    const server = fakeServer({
      'POST /api/workspaces': { status: 201, body: made },
      'PUT /api/workspaces/current': { body: list('w3', [personal, studio, made]) },
    });
    const store = createWorkspaceStore(server.send);
    const switchedTo: string[] = [];
    store.onSwitch((current) => switchedTo.push(current.id));

    expect(await store.create('Client Work')).toEqual(made);
    expect(server.sent.map((r) => [r.method, r.path, r.body])).toEqual([
      ['POST', '/api/workspaces', { name: 'Client Work' }],
      ['PUT', '/api/workspaces/current', { workspaceId: 'w3' }],
    ]);
    expect(switchedTo).toEqual(['w3']);
  });

  it('shows the current workspace’s name, the personal one marked Personal', () => {
    const mine = render({ list: list('c1') });
    expect(mine('.workspace-switcher__button .workspace-switcher__name').text()).toBe('Mara Lind');
    expect(mine('.workspace-switcher__button .workspace-switcher__tag').text()).toBe('Personal');
    // Its name is its words, as they stand on the button, with what the button does around them.
    expect(mine('.workspace-switcher__button').attr('aria-label')).toBeUndefined();
    expect(mine('.workspace-switcher__button').text()).toBe('Workspace: Mara Lind Personal, switch workspace');

    const shared = render({ list: list('w2') });
    expect(shared('.workspace-switcher__button .workspace-switcher__name').text()).toBe('Northlight Studio');
    expect(shared('.workspace-switcher__button .workspace-switcher__tag')).toHaveLength(0);
  });

  it('is a closed menu button until opened; the menu lists each workspace with the caller’s role, the current one checked', () => {
    const closed = render({ list: list('w2') });
    const button = closed('.workspace-switcher__button');
    expect(button.attr('aria-haspopup')).toBe('menu');
    expect(button.attr('aria-expanded')).toBe('false');
    expect(closed(`#${button.attr('aria-controls')}`).attr('hidden')).toBeDefined();

    const $ = render({ list: list('w2'), open: true });
    expect($('.workspace-switcher__button').attr('aria-expanded')).toBe('true');
    const items = $('[role=menuitemradio]');
    expect(items.map((_, item) => $(item).find('.workspace-switcher__item-name').text()).get()).toEqual(['Mara LindPersonal', 'Northlight Studio']);
    expect(items.map((_, item) => $(item).find('.workspace-switcher__role').text()).get()).toEqual(['Owner', 'Editor']);
    expect(items.map((_, item) => $(item).attr('aria-checked')).get()).toEqual(['false', 'true']);
    // Every item is reached with the arrows, not with Tab.
    $('[role^=menuitem]').each((_, item) => expect($(item).attr('tabindex')).toBe('-1'));
    expect(
      $('[role=menuitem]')
        .map((_, item) => $(item).text())
        .get(),
    ).toEqual(['Members', 'Create workspace']);
  });

  it('offers the audit log only where the role may read it', () => {
    const asOwner = render({ list: list('c1'), open: true });
    expect(asOwner('a[role=menuitem]:contains("Audit log")').attr('href')).toBe('/dashboard/audit');
    expect(asOwner('a[role=menuitem]:contains("Members")').attr('href')).toBe('/dashboard/members');
    const asEditor = render({ list: list('w2'), open: true });
    expect(asEditor('a[role=menuitem]:contains("Audit log")')).toHaveLength(0);
  });

  it('arrow keys move round the menu, Home and End jump to its ends', () => {
    expect(nextMenuIndex('ArrowDown', 0, 4)).toBe(1);
    expect(nextMenuIndex('ArrowDown', 3, 4)).toBe(0);
    expect(nextMenuIndex('ArrowUp', 0, 4)).toBe(3);
    expect(nextMenuIndex('ArrowUp', -1, 4)).toBe(3);
    expect(nextMenuIndex('Home', 2, 4)).toBe(0);
    expect(nextMenuIndex('End', 0, 4)).toBe(3);
    expect(nextMenuIndex('Escape', 1, 4)).toBeNull();
    expect(nextMenuIndex('a', 1, 4)).toBeNull();
  });

  it('after a switch a site’s own page goes to the sites list; the other pages stay and load again', () => {
    expect(pathAfterSwitch('/dashboard/projects/AbCdEfGh12345678')).toBe('/dashboard');
    expect(pathAfterSwitch('/dashboard')).toBeNull();
    expect(pathAfterSwitch('/dashboard/members')).toBeNull();
    expect(pathAfterSwitch('/billing')).toBeNull();
  });
});

describe('what the dashboard offers a role', () => {
  it('follows the current workspace’s permissions: a viewer reads, an editor publishes, only the owner changes the plan', () => {
    const viewer = permissionCheck(workspace('w3', 'Client Review Board', 'viewer'));
    expect(viewer('sites.read')).toBe(true);
    expect(viewer('sites.create')).toBe(false);
    expect(viewer('sites.edit')).toBe(false);
    expect(viewer('comments.reply')).toBe(false);
    const editor = permissionCheck(studio);
    expect(editor('sites.create')).toBe(true);
    expect(editor('members.manage')).toBe(false);
    expect(editor('billing.manage')).toBe(false);
    expect(permissionCheck(personal)('billing.manage')).toBe(true);
    // A workspace the list does not name allows nothing.
    expect(permissionCheck(null)('sites.read')).toBe(false);
  });
});
