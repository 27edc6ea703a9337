import { describe, expect, it } from 'vitest';
import type { TAuditPage } from '@dropsite/shared';
import type { TSendRequest } from '@dropsite/shared/browser/api-client';
import { auditQueryString, isDateRangeBackwards, NO_AUDIT_FILTERS } from './audit-query.ts';
import { auditCsvPath, fetchAuditPage } from './workspaces-api.ts';

const page: TAuditPage = {
  events: [
    {
      id: 'e1',
      type: 'member.invited',
      at: '2026-12-07T10:00:00.000Z',
      actor: { creatorId: 'jon', name: 'Jon Reyes' },
      target: 'sam@client.example',
      details: 'Invited as Viewer',
      address: '203.0.113.7',
    },
  ],
  nextBefore: 'cursor-e1',
};

describe('the audit log’s filters', () => {
  it('ask for nothing when none is set', () => {
    expect(auditQueryString(NO_AUDIT_FILTERS, null)).toBe('');
  });

  it('send each filter set, and the page to continue from', () => {
    expect(auditQueryString({ type: 'member.role_changed', actor: 'jon', from: '2026-12-01', to: '2026-12-07' }, null)).toBe(
      '?type=member.role_changed&actor=jon&from=2026-12-01&to=2026-12-07',
    );
    expect(auditQueryString({ ...NO_AUDIT_FILTERS, actor: 'jon' }, 'cursor-e1')).toBe('?actor=jon&before=cursor-e1');
    expect(auditQueryString({ ...NO_AUDIT_FILTERS, to: '2026-12-07' }, null)).toBe('?to=2026-12-07');
  });

  it('leave out a date that is not a whole YYYY-MM-DD, and notice a range that ends before it starts', () => {
    expect(auditQueryString({ ...NO_AUDIT_FILTERS, from: '2026-12', to: '' }, null)).toBe('');
    expect(isDateRangeBackwards({ ...NO_AUDIT_FILTERS, from: '2026-12-07', to: '2026-12-01' })).toBe(true);
    expect(isDateRangeBackwards({ ...NO_AUDIT_FILTERS, from: '2026-12-07', to: '2026-12-07' })).toBe(false);
    expect(isDateRangeBackwards({ ...NO_AUDIT_FILTERS, from: '2026-12-07' })).toBe(false);
  });

  it('GET …/audit carries them, Load older adds `before`, and the CSV link carries the same filters but no page', async () => {
    const asked: string[] = [];
    const send: TSendRequest = async (path) => {
      asked.push(path);
      return new Response(JSON.stringify(page), { status: 200 });
    };
    const filters = { type: 'member.invited', actor: 'jon', from: '2026-12-01', to: '' } as const;
    expect(await fetchAuditPage('w 2', filters, null, send)).toEqual(page);
    await fetchAuditPage('w 2', filters, 'cursor-e1', send);
    expect(asked).toEqual([
      '/api/workspaces/w%202/audit?type=member.invited&actor=jon&from=2026-12-01',
      '/api/workspaces/w%202/audit?type=member.invited&actor=jon&from=2026-12-01&before=cursor-e1',
    ]);
    expect(auditCsvPath('w 2', filters)).toBe('/api/workspaces/w%202/audit.csv?type=member.invited&actor=jon&from=2026-12-01');
  });
});
