/**
 * The visitors table: a visitor (whose id the principal carries, from the visitor cookie) is
 * recorded the first time they engage. A runtime remembers whom it recorded (`deps.caches.knownVisitors`),
 * so a returning visitor costs no write, and reads their name through the read cache, so it costs no
 * query while the table is unchanged. A visitor names themselves once per device (the cookie):
 * every favourite, comment and approval they make afterwards keeps that name (and address).
 */
import { visitorDisplayName, type TVisitorProfile } from '@dropsite/shared';
import type { TVisitorsDeps } from './visitors.deps.ts';
import { findVisitorProfile, insertVisitorIfMissing, saveVisitorProfile } from './visitors.repository.ts';

/** Visitors remembered as recorded before the set is emptied. */
const KNOWN_LIMIT = 100_000;

type TDeps = Pick<TVisitorsDeps, 'db' | 'clock' | 'caches'>;

/** Records the visitor in the visitors table once (per runtime, cached). */
export async function recordVisitor(deps: TDeps, visitorId: string): Promise<void> {
  const known = deps.caches.knownVisitors;
  if (known.has(visitorId)) return;
  await insertVisitorIfMissing(deps.db, visitorId, deps.clock.now());
  remember(known, visitorId);
}

function remember(known: Set<string>, visitorId: string): void {
  if (known.size >= KNOWN_LIMIT) known.clear();
  known.add(visitorId);
}

/** The visitor as the site names them: the name they gave, else 'User' and the last 4 characters of their id. */
export async function visitorProfileOf(deps: Pick<TVisitorsDeps, 'db' | 'caches'>, visitorId: string): Promise<TVisitorProfile> {
  const row = await findVisitorProfile(deps.db, visitorId, deps.caches);
  return { name: row.display_name ?? visitorDisplayName(visitorId), hasName: row.display_name !== null, email: row.email };
}

/** Records the visitor (once) and answers how they are named: what an engagement write stores with its row. */
export async function engagingVisitor(deps: TDeps, visitorId: string): Promise<TVisitorProfile> {
  await recordVisitor(deps, visitorId);
  return visitorProfileOf(deps, visitorId);
}

/** Stores the name (validated and trimmed by the caller's schema) and the address (or null) the visitor gave. */
export async function setVisitorProfile(deps: TDeps, visitorId: string, profile: { name: string; email: string | null }): Promise<TVisitorProfile> {
  await saveVisitorProfile(deps.db, visitorId, { display_name: profile.name, email: profile.email }, deps.clock.now());
  remember(deps.caches.knownVisitors, visitorId);
  return { name: profile.name, hasName: true, email: profile.email };
}
