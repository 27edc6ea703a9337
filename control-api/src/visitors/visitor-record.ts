/**
 * The visitors table: a visitor (whose id the principal carries, from the visitor cookie) is
 * recorded the first time they engage. A runtime remembers whom it recorded (`deps.caches.knownVisitors`),
 * so a returning visitor costs no write.
 */
import type { TAppDeps } from '../deps.ts';
import { insertVisitorIfMissing } from './visitors.repository.ts';

/** Visitors remembered as recorded before the set is emptied. */
const KNOWN_LIMIT = 100_000;

/** Records the visitor in the visitors table once (per runtime, cached). */
export async function recordVisitor(deps: Pick<TAppDeps, 'db' | 'clock' | 'caches'>, visitorId: string): Promise<void> {
  const known = deps.caches.knownVisitors;
  if (known.has(visitorId)) return;
  await insertVisitorIfMissing(deps.db, visitorId, deps.clock.now());
  if (known.size >= KNOWN_LIMIT) known.clear();
  known.add(visitorId);
}
