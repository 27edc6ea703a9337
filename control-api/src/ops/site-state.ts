/**
 * What state a site is in for an operator, worked out in SQL so the site list and the counts of
 * `npm run stats` read it the same way: taken down, deleted (waiting for the sweeper to remove it),
 * expired, or else its build state (live, building, failed).
 */
import { sql, type ExpressionBuilder, type ExpressionWrapper } from 'kysely';
import type { Database } from '../db/tables.ts';

export const SITE_STATES = ['live', 'building', 'failed', 'expired', 'deleted', 'taken_down'] as const;
export type TSiteState = (typeof SITE_STATES)[number];

/**
 * The site's state at `now`. A takedown also sets deleted_at, so it is asked first; a deleted site
 * carries its removal time in expires_at, so deletion is asked before expiry.
 */
export function siteStateAt(eb: ExpressionBuilder<Database, 'projects'>, now: number): ExpressionWrapper<Database, 'projects', TSiteState> {
  return eb
    .case()
    .when('projects.taken_down_at', 'is not', null)
    .then(sql.lit<TSiteState>('taken_down'))
    .when('projects.deleted_at', 'is not', null)
    .then(sql.lit<TSiteState>('deleted'))
    .when(eb.and([eb('projects.expires_at', 'is not', null), eb('projects.expires_at', '<=', now)]))
    .then(sql.lit<TSiteState>('expired'))
    .else(eb.ref('projects.status'))
    .end();
}

/** How the state reads in the commands' tables. */
export function describeSiteState(state: TSiteState): string {
  if (state === 'taken_down') return 'taken down';
  if (state === 'deleted') return 'deleted (pending removal)';
  return state;
}
