/**
 * The password gate of a locked site: what it may show before the password is given. Only the
 * site's title, its author's name, its colour mode and a cover reduced to a few colours (the first
 * picture at 16 px across, blurred by the page): no file, name, thumbnail or link of the site is
 * reachable without the unlock cookie (decisions §4).
 */
import { buffer } from 'node:stream/consumers';
import { renderGateCover } from '@dropsite/builder';
import { storedSiteLook } from '@dropsite/shared';
import type { TSitesDeps } from './sites.deps.ts';
import type { TSiteRow } from '../db/tables.ts';
import { listFilesBySite, parseDerivedMetadata } from '../site-records/site-records.repository.ts';
import { passwordPage } from './status-pages.ts';

/** Covers already made, by file and version (a replaced picture makes a new one). */
const covers = new Map<string, string | null>();
const MAX_COVERS = 512;
/** Pictures larger than this are not read for a cover (a thumbnail is far smaller). */
const MAX_COVER_SOURCE_BYTES = 2 * 1024 * 1024;

/** The gate's cover: the site's first picture, as a data URI of a few pixels; null when it has none (or it cannot be made). */
export async function gateCoverOf(deps: Pick<TSitesDeps, 'db' | 'storage' | 'log'>, siteId: string): Promise<string | null> {
  const files = await listFilesBySite(deps.db, siteId);
  for (const file of files) {
    if (file.kind !== 'image') continue;
    const thumbnail = parseDerivedMetadata(file.metadata)?.thumbnail;
    // The first picture only, as the site's own hero: one without a thumbnail (yet) gives no cover.
    if (!thumbnail) return null;
    const memoKey = `${file.id}:${file.version}`;
    const known = covers.get(memoKey);
    if (known !== undefined) return known;
    let cover: string | null = null;
    try {
      const opened = await deps.storage.get(thumbnail.key);
      if (opened.size <= MAX_COVER_SOURCE_BYTES) cover = await renderGateCover(await buffer(opened.body));
      else opened.body.destroy();
    } catch (err) {
      deps.log.warn({ err, fileId: file.id }, 'could not make a password gate cover');
      return null;
    }
    if (covers.size >= MAX_COVERS) covers.delete(covers.keys().next().value ?? '');
    covers.set(memoKey, cover);
    return cover;
  }
  return null;
}

/**
 * The gate page of a slug. The site's title, author and cover are shown only for a live locked site
 * (not deleted, not taken down); anything else gets the plain gate.
 */
export async function passwordGatePage(deps: Pick<TSitesDeps, 'db' | 'storage' | 'log'>, slug: string, site: TSiteRow | null, error?: string): Promise<string> {
  const shown = site !== null && site.password_hash !== null && site.deleted_at === null && site.taken_down_at === null ? site : null;
  if (!shown) return passwordPage({ slug, colorMode: 'auto', ...(error ? { error } : {}) });
  const look = storedSiteLook(shown);
  return passwordPage({
    slug,
    colorMode: look.colorMode,
    title: shown.title,
    authorName: shown.author_name,
    cover: await gateCoverOf(deps, shown.id),
    ...(error ? { error } : {}),
  });
}
