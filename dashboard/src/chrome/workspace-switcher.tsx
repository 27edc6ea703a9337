/**
 * The header's workspace switcher: the workspace the dashboard shows (the personal one marked
 * 'Personal'), and a menu of the creator's workspaces with their role, the members page, the audit
 * log for those who may read it, and 'Create workspace'. A menu button: arrows move between the
 * items, Home and End jump, Escape closes it and returns focus, Tab or a click elsewhere closes it.
 * Choosing a workspace switches the dashboard to it (PUT /api/workspaces/current) and the open page
 * loads its data again; a site's own page, which belongs to the old workspace, goes to the sites list.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { APP_PATHS, WORKSPACE_ROLE_TEXT, resolveAppPage, type TWorkspaceList, type TWorkspaceSummary } from '@dropsite/shared';
import { failureMessage } from '../auth/failure-message.ts';
import { CheckIcon, ChevronDownIcon } from '../ui/icons.tsx';
import { currentWorkspaceOf, getWorkspaceStore, useWorkspaces } from '../workspaces/workspace-store.ts';
import { CreateWorkspaceDialog } from './create-workspace-dialog.tsx';
import './workspace-switcher.css';

/** Where focus goes from `at` among `count` menu items for a key, or null for a key the menu leaves alone. */
export function nextMenuIndex(key: string, at: number, count: number): number | null {
  if (count === 0) return null;
  switch (key) {
    case 'ArrowDown':
      return (at + 1) % count;
    case 'ArrowUp':
      return at < 0 ? count - 1 : (at - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

/** The page to be on after a switch: a site's page belongs to the workspace left, the others show the new one's. */
export function pathAfterSwitch(pathname: string): string | null {
  return resolveAppPage(pathname) === 'project' ? APP_PATHS.dashboard : null;
}

function menuItems(menu: HTMLElement | null): HTMLElement[] {
  return [...(menu?.querySelectorAll<HTMLElement>('[role^="menuitem"]:not([disabled])') ?? [])];
}

/** The switcher of a signed-in creator; nothing until their workspaces are known. */
export function WorkspaceSwitcher({ place }: { place: 'bar' | 'drawer' }) {
  const state = useWorkspaces();
  if (state.status !== 'ready') return null;
  return <WorkspaceMenu list={state.list} place={place} onSwitch={(id) => getWorkspaceStore().switchTo(id)} />;
}

interface TWorkspaceMenuProps {
  list: TWorkspaceList;
  place: 'bar' | 'drawer';
  /** Switches to the workspace; rejects with the server's refusal. */
  onSwitch: (workspaceId: string) => Promise<void>;
  /** Open from the start (the tests draw the open menu). */
  initiallyOpen?: boolean;
}

export function WorkspaceMenu({ list, place, onSwitch, initiallyOpen = false }: TWorkspaceMenuProps) {
  const [isOpen, setOpen] = useState(initiallyOpen);
  const [switchingTo, setSwitchingTo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isCreating, setCreating] = useState(false);
  const menuId = useId();
  const errorId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const current = currentWorkspaceOf(list);
  const canReadAudit = current?.permissions.includes('audit.read') ?? false;

  useEffect(() => {
    if (!isOpen) return;
    const items = menuItems(menu.current);
    (items.find((item) => item.getAttribute('aria-checked') === 'true') ?? items[0])?.focus();
    const onPointerDown = (event: PointerEvent) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', onPointerDown);
    return () => document.removeEventListener('pointerdown', onPointerDown);
  }, [isOpen]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };

  const onMenuKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const all = menuItems(menu.current);
    const to = nextMenuIndex(event.key, all.indexOf(document.activeElement as HTMLElement), all.length);
    if (to !== null) {
      event.preventDefault();
      all[to]?.focus();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      // Only this menu closes: in the phone menu, the menu around it stays open.
      event.stopPropagation();
      close();
    } else if (event.key === 'Tab') setOpen(false);
  };

  const choose = async (workspace: TWorkspaceSummary) => {
    if (workspace.id === list.currentWorkspaceId) {
      close();
      return;
    }
    setSwitchingTo(workspace.id);
    setError(null);
    try {
      await onSwitch(workspace.id);
      close();
      const next = pathAfterSwitch(window.location.pathname);
      if (next) window.location.assign(next);
    } catch (failure) {
      setError(`Could not switch to ${workspace.name}: ${failureMessage(failure)}`);
    }
    setSwitchingTo(null);
  };

  const name = current?.name ?? 'Workspace';
  return (
    <div ref={root} className="workspace-switcher" data-place={place}>
      <button
        ref={button}
        type="button"
        className="workspace-switcher__button"
        aria-haspopup="menu"
        aria-expanded={isOpen}
        aria-controls={menuId}
        onClick={() => setOpen((open) => !open)}
        onKeyDown={(event) => {
          if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && !isOpen) {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        {/* The name a screen reader hears holds the words on the button, as they stand. */}
        <span className="visually-hidden">Workspace: </span>
        <span className="workspace-switcher__name">{name}</span>
        {current?.personal && (
          <>
            {' '}
            <span className="workspace-switcher__tag">Personal</span>
          </>
        )}
        <span className="visually-hidden">, switch workspace</span>
        <ChevronDownIcon size={16} />
      </button>
      <div id={menuId} ref={menu} className="workspace-switcher__panel" role="menu" aria-label="Workspaces" hidden={!isOpen} onKeyDown={onMenuKeyDown}>
        <p className="workspace-switcher__heading" aria-hidden="true">
          Workspaces
        </p>
        {list.workspaces.map((workspace) => {
          const isCurrent = workspace.id === list.currentWorkspaceId;
          return (
            <button
              key={workspace.id}
              type="button"
              role="menuitemradio"
              aria-checked={isCurrent}
              tabIndex={-1}
              className="workspace-switcher__item"
              disabled={switchingTo !== null}
              aria-describedby={error ? errorId : undefined}
              onClick={() => void choose(workspace)}
            >
              <span className="workspace-switcher__check" aria-hidden="true">
                {isCurrent && <CheckIcon size={16} />}
              </span>
              <span className="workspace-switcher__item-text">
                <span className="workspace-switcher__item-name">
                  {workspace.name}
                  {workspace.personal && <span className="workspace-switcher__tag">Personal</span>}
                </span>
                <span className="workspace-switcher__role">{switchingTo === workspace.id ? 'Switching…' : WORKSPACE_ROLE_TEXT[workspace.role].label}</span>
              </span>
            </button>
          );
        })}
        {error && (
          <p id={errorId} className="workspace-switcher__error" role="alert">
            {error}
          </p>
        )}
        <hr className="workspace-switcher__rule" />
        <a role="menuitem" tabIndex={-1} className="account-menu__item" href={APP_PATHS.members}>
          Members
        </a>
        {canReadAudit && (
          <a role="menuitem" tabIndex={-1} className="account-menu__item" href={APP_PATHS.audit}>
            Audit log
          </a>
        )}
        <button
          role="menuitem"
          tabIndex={-1}
          type="button"
          className="account-menu__item"
          onClick={() => {
            setOpen(false);
            setCreating(true);
          }}
        >
          Create workspace
        </button>
      </div>
      {isCreating && (
        <CreateWorkspaceDialog
          onClose={() => {
            setCreating(false);
            button.current?.focus();
          }}
          onCreated={() => {
            const next = pathAfterSwitch(window.location.pathname);
            if (next) window.location.assign(next);
          }}
        />
      )}
    </div>
  );
}
