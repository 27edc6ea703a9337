/**
 * /dashboard/audit (owners and admins, `audit.read`): the current workspace's events, newest first,
 * filtered by event type, member and dates, 'Load older' for the next page, and the same filters
 * as a CSV export. On a phone each event is a stacked row.
 */
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { APP_PATHS, AUDIT_EVENT_LABELS, AUDIT_EVENT_TYPES, ZAuditEventTypeSchema, type TAuditEvent, type TWorkspaceMember, type TWorkspaceSummary } from '@dropsite/shared';
import { failureMessage } from '../../auth/failure-message.ts';
import { DownloadIcon } from '../../ui/icons.tsx';
import { isDateRangeBackwards, NO_AUDIT_FILTERS, type TAuditFilters } from '../../workspaces/audit-query.ts';
import { WorkspaceFrame } from '../members/workspace-frame.tsx';
import { formatMoment } from '../../workspaces/workspace-text.ts';
import { auditCsvPath, fetchAuditPage, fetchMembers } from '../../workspaces/workspaces-api.ts';
import '../../auth/auth.css';
import '../members/members.css';
import './audit.css';

export function AuditPage() {
  return (
    <WorkspaceFrame title="Audit log" returnTo={APP_PATHS.audit}>
      {(workspace) =>
        workspace.permissions.includes('audit.read') ? (
          <WorkspaceAudit key={workspace.id} workspace={workspace} />
        ) : (
          <main id="main" className="dash container members">
            <div className="dash-empty">
              <h1 className="members__title">Audit log</h1>
              <p>Only the owner and admins of {workspace.name} can see its audit log.</p>
              <a className="button button--secondary" href={APP_PATHS.dashboard}>
                Back to your sites
              </a>
            </div>
          </main>
        )
      }
    </WorkspaceFrame>
  );
}

type TLoad =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'ready'; events: TAuditEvent[]; nextBefore: string | null; older: 'idle' | 'loading' | { failed: string } };

function WorkspaceAudit({ workspace }: { workspace: TWorkspaceSummary }) {
  const [filters, setFilters] = useState<TAuditFilters>(NO_AUDIT_FILTERS);
  const [load, setLoad] = useState<TLoad>({ status: 'loading' });
  const [members, setMembers] = useState<TWorkspaceMember[]>([]);
  // Only the latest request's answer is shown: filters change faster than the server answers.
  const round = useRef(0);
  const isBackwards = isDateRangeBackwards(filters);

  useEffect(() => {
    let isCurrent = true;
    fetchMembers(workspace.id).then(
      (data) => isCurrent && setMembers(data.members),
      // Without the list the member filter offers everyone only; the log itself still loads.
      () => undefined,
    );
    return () => {
      isCurrent = false;
    };
  }, [workspace.id]);

  const loadFirst = useCallback(async () => {
    if (isDateRangeBackwards(filters)) return;
    const mine = ++round.current;
    setLoad({ status: 'loading' });
    try {
      const page = await fetchAuditPage(workspace.id, filters, null);
      if (mine === round.current) setLoad({ status: 'ready', events: page.events, nextBefore: page.nextBefore, older: 'idle' });
    } catch (error) {
      if (mine === round.current) setLoad({ status: 'failed', message: failureMessage(error) });
    }
  }, [workspace.id, filters]);

  useEffect(() => {
    void loadFirst();
  }, [loadFirst]);

  const loadOlder = async () => {
    if (load.status !== 'ready' || !load.nextBefore) return;
    const mine = round.current;
    setLoad({ ...load, older: 'loading' });
    try {
      const page = await fetchAuditPage(workspace.id, filters, load.nextBefore);
      if (mine === round.current) setLoad({ status: 'ready', events: [...load.events, ...page.events], nextBefore: page.nextBefore, older: 'idle' });
    } catch (error) {
      if (mine === round.current) setLoad({ ...load, older: { failed: failureMessage(error) } });
    }
  };

  const isFiltered = filters.type !== '' || filters.actor !== '' || filters.from !== '' || filters.to !== '';

  return (
    <main id="main" className="dash container members audit" aria-busy={load.status === 'loading'}>
      <header className="members__head audit__head">
        <div>
          <p className="eyebrow">{workspace.name}</p>
          <h1 className="members__title">Audit log</h1>
          <p className="members__lede">Every change to the workspace, its sites and its members: who made it, when and from where.</p>
        </div>
        <a className="button button--secondary" href={auditCsvPath(workspace.id, filters)} download>
          <DownloadIcon size={18} />
          Export CSV
        </a>
      </header>

      <AuditFilters filters={filters} members={members} isBackwards={isBackwards} onChange={setFilters} />

      {load.status === 'loading' && (
        <div className="members-section" aria-hidden="true">
          <div className="dash-skeleton dash-skeleton--title" />
          <div className="dash-skeleton dash-skeleton--lines" />
        </div>
      )}
      {load.status === 'failed' && (
        <div className="dash-inline-error" role="alert">
          <p>The audit log could not be loaded: {load.message}</p>
          <button type="button" className="button button--secondary" onClick={() => void loadFirst()}>
            Retry
          </button>
        </div>
      )}
      {load.status === 'ready' &&
        (load.events.length === 0 ? (
          <div className="dash-empty">
            <h2>{isFiltered ? 'No events match these filters' : 'Nothing has happened here yet'}</h2>
            <p>{isFiltered ? 'Try another event type, member or dates.' : 'Changes to the workspace, its sites and its members will show here.'}</p>
          </div>
        ) : (
          <section className="members-section" aria-label="Events">
            <AuditTable events={load.events} />
            {load.nextBefore && (
              <div className="audit__more">
                <button type="button" className="button button--secondary" onClick={() => void loadOlder()} disabled={load.older === 'loading'}>
                  {load.older === 'loading' ? 'Loading…' : 'Load older'}
                </button>
              </div>
            )}
            {typeof load.older === 'object' && (
              <p className="members-error" role="alert">
                Older events could not be loaded: {load.older.failed}
              </p>
            )}
          </section>
        ))}
    </main>
  );
}

export function AuditFilters({
  filters,
  members,
  isBackwards,
  onChange,
}: {
  filters: TAuditFilters;
  members: readonly TWorkspaceMember[];
  isBackwards: boolean;
  onChange: (filters: TAuditFilters) => void;
}) {
  const typeId = useId();
  const actorId = useId();
  const fromId = useId();
  const toId = useId();
  const rangeErrorId = useId();
  return (
    <form className="audit-filters" aria-label="Filter events" onSubmit={(event) => event.preventDefault()}>
      <div className="auth-field">
        <label htmlFor={typeId} className="auth-field__label">
          Event
        </label>
        <select
          id={typeId}
          className="ui-field"
          value={filters.type}
          onChange={(event) => {
            const type = ZAuditEventTypeSchema.safeParse(event.target.value);
            onChange({ ...filters, type: type.success ? type.data : '' });
          }}
        >
          <option value="">All events</option>
          {AUDIT_EVENT_TYPES.map((type) => (
            <option key={type} value={type}>
              {AUDIT_EVENT_LABELS[type]}
            </option>
          ))}
        </select>
      </div>
      <div className="auth-field">
        <label htmlFor={actorId} className="auth-field__label">
          Member
        </label>
        <select id={actorId} className="ui-field" value={filters.actor} onChange={(event) => onChange({ ...filters, actor: event.target.value })}>
          <option value="">Everyone</option>
          {members.map((member) => (
            <option key={member.creatorId} value={member.creatorId}>
              {member.name.trim() || member.email}
            </option>
          ))}
        </select>
      </div>
      <div className="auth-field">
        <label htmlFor={fromId} className="auth-field__label">
          From
        </label>
        <input
          id={fromId}
          className="ui-field"
          type="date"
          value={filters.from}
          max={filters.to || undefined}
          aria-invalid={isBackwards || undefined}
          aria-describedby={isBackwards ? rangeErrorId : undefined}
          onChange={(event) => onChange({ ...filters, from: event.target.value })}
        />
      </div>
      <div className="auth-field">
        <label htmlFor={toId} className="auth-field__label">
          To
        </label>
        <input
          id={toId}
          className="ui-field"
          type="date"
          value={filters.to}
          min={filters.from || undefined}
          aria-invalid={isBackwards || undefined}
          aria-describedby={isBackwards ? rangeErrorId : undefined}
          onChange={(event) => onChange({ ...filters, to: event.target.value })}
        />
      </div>
      {isBackwards && (
        <p id={rangeErrorId} className="members-error audit-filters__error" role="alert">
          The end date comes before the start date.
        </p>
      )}
    </form>
  );
}

export function AuditTable({ events }: { events: readonly TAuditEvent[] }) {
  return (
    <table className="members-table audit-table">
      <caption className="visually-hidden">Audit events, newest first</caption>
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Who</th>
          <th scope="col">Event</th>
          <th scope="col">Target</th>
          <th scope="col">Details</th>
          <th scope="col">Address</th>
        </tr>
      </thead>
      <tbody>
        {events.map((event) => (
          <tr key={event.id}>
            <td data-label="When" className="members-table__date">
              <time dateTime={event.at}>{formatMoment(event.at)}</time>
            </td>
            <td data-label="Who">{event.actor?.name ?? 'Dropsite (automatic)'}</td>
            <td data-label="Event" className="members-table__strong">
              {AUDIT_EVENT_LABELS[event.type]}
            </td>
            <td data-label="Target">{event.target ?? '—'}</td>
            <td data-label="Details">{event.details || '—'}</td>
            <td data-label="Address" className="audit-table__address">
              {event.address ?? '—'}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
