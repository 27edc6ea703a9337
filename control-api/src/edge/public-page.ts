/**
 * Public pages at the edge: the page of a site that is public right now (live, no password, no
 * expiry, neither deleted nor taken down) is copied to public/{slug}/ with the headers a visitor
 * must get in its metadata, and the edge (deploy/edge.conf) serves /{slug} from there without an API
 * process. Whatever is not there (locked, expiring, deleted, taken-down, building and unknown sites)
 * falls back to the API, which answers as always.
 *
 * The copy is the only thing the edge trusts, so every change of access removes it before the API
 * answers (changeSiteAccess: removed, changed, removed again), and a build publishes it only when the
 * site is public, then looks again and removes it if access changed while it wrote (syncPublicPage).
 * See docs/serving.md, "Public pages at the edge", for the failure cases.
 */
import { setTimeout } from 'node:timers/promises';
import { Readable } from 'node:stream';
import {
  PUBLIC_SITES_PREFIX,
  STORED_CODINGS,
  publicSiteHtmlKey,
  publicSiteHtmlVariantKey,
  publicSitePrefix,
  siteHtmlKey,
  siteHtmlVariantKey,
  type TStoredCoding,
} from '@dropsite/shared';
import type { TBuiltPage } from '@dropsite/builder';
import type { TEdgeDeps } from './edge.deps.ts';
import type { TSiteRow } from '../db/tables.ts';
import { findSiteById } from '../site-records/site-records.repository.ts';
import { StorageNotFoundError, assertValidMetadata, type Storage } from '../storage/storage.ts';
import { siteCsp, storedScriptHashes } from '../sites/site-csp.ts';
import { SITE_PAGE_CACHE_CONTROL, SITE_PAGE_SECURITY_HEADERS } from '../sites/site-access.ts';

/**
 * The metadata name each header of a public page is kept under. S3 sends it to every reader as
 * `x-amz-meta-{name}`, which deploy/edge.conf sends on as the header (`$upstream_http_x_amz_meta_…`).
 */
export const PUBLIC_PAGE_HEADER_METADATA = {
  'Content-Security-Policy': 'page-content-security-policy',
  'X-Content-Type-Options': 'page-x-content-type-options',
  'Referrer-Policy': 'page-referrer-policy',
} as const;

type TPublicHeader = keyof typeof PUBLIC_PAGE_HEADER_METADATA;

const SITE_HTML_CONTENT_TYPE = 'text/html; charset=utf-8';

/** The headers of a page whose inline scripts have these hashes, as metadata of its public copy. */
function publicPageMetadata(scriptHashes: readonly string[]): Record<string, string> {
  const headers: Record<TPublicHeader, string> = { ...SITE_PAGE_SECURITY_HEADERS, 'Content-Security-Policy': siteCsp(scriptHashes) };
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [PUBLIC_PAGE_HEADER_METADATA[name as TPublicHeader], value]));
}

type TAccessFields = Pick<TSiteRow, 'deleted_at' | 'taken_down_at' | 'expires_at' | 'password_hash' | 'status'>;

/**
 * Whether anyone may see the site right now, and will until its owner or an operator changes that:
 * a site with an expiry never is (the API answers it, so it closes at its instant, not when an edge
 * would notice).
 */
function isPublicNow(site: TAccessFields | null | undefined): boolean {
  return site != null && site.deleted_at === null && site.taken_down_at === null && site.expires_at === null && site.password_hash === null && site.status === 'live';
}

/**
 * Removes a site's public copy (all of it; a missing part is no error). The edge then sends /{slug}
 * to the API. One listing of the site's public folder finds what is there (nothing, for most sites
 * and every site of a store without an edge), so a site without a copy costs one call, not a delete
 * per possible object.
 */
export async function withdrawPublicPage(storage: Pick<Storage, 'deletePrefix'>, slug: string): Promise<void> {
  await storage.deletePrefix(publicSitePrefix(slug));
}

/**
 * Removes the public copy of every site: run as a builder starts without an edge (EDGE_PUBLIC_PAGES
 * off), so that copies written while it was on cannot outlive a later access change and be served
 * again once it is turned back on. Builds then write and remove no copy at all.
 */
export async function withdrawEveryPublicPage(storage: Pick<Storage, 'deletePrefix'>): Promise<number> {
  return storage.deletePrefix(PUBLIC_SITES_PREFIX);
}

type TPublishDeps = Pick<TEdgeDeps, 'storage' | 'log'>;

/** One representation of a page as its copy is written: its bytes, their tag and their inline scripts' hashes. */
interface TPageRepresentation {
  body: Readable | Uint8Array;
  etag: string;
  contentType: string;
  scriptHashes: readonly string[];
}

/** What a page's copy is written from: the build's own bytes, or the stored page read back. */
type TPageSource = (coding: TStoredCoding | 'identity') => Promise<TPageRepresentation>;

/** The build's page, as it stored it (no read back). */
function builtSource(page: TBuiltPage): TPageSource {
  return async (coding) => ({
    body: page.representations[coding].bytes,
    etag: page.representations[coding].etag,
    contentType: SITE_HTML_CONTENT_TYPE,
    scriptHashes: page.scriptHashes,
  });
}

/** The stored page, each representation with the tag and script hashes stored with its bytes. */
function storedSource(storage: Storage, slug: string): TPageSource {
  return async (coding) => {
    const object = await storage.get(coding === 'identity' ? siteHtmlKey(slug) : siteHtmlVariantKey(slug, coding));
    const scriptHashes = storedScriptHashes(object.metadata);
    if (object.etag === undefined || scriptHashes === undefined) {
      object.body.destroy();
      throw new NotPublishable(`the ${coding} page has no tag or script hashes stored with it`);
    }
    return { body: object.body, etag: object.etag, contentType: object.contentType ?? SITE_HTML_CONTENT_TYPE, scriptHashes };
  };
}

/**
 * Copies a site page and its variants to the public prefix, each with the headers of its own bytes:
 * the build's page when given, else the stored one. Answers false, with nothing left public, when the
 * stored page cannot be copied as it is (stored without its tag or script hashes, as pages built before
 * they were kept with it; headers too long for metadata): the API serves such a site.
 */
export async function publishPublicPage(deps: TPublishDeps, slug: string, built?: TBuiltPage): Promise<boolean> {
  try {
    const source = built ? builtSource(built) : storedSource(deps.storage, slug);
    // Variants first and the page last, as a build writes them.
    for (const coding of [...STORED_CODINGS, 'identity'] as const) {
      const { body, etag, contentType, scriptHashes } = await source(coding);
      const metadata = publicPageMetadata(scriptHashes);
      try {
        assertValidMetadata(metadata);
      } catch (err) {
        if (body instanceof Readable) body.destroy();
        throw new NotPublishable(err instanceof Error ? err.message : String(err));
      }
      const key = coding === 'identity' ? publicSiteHtmlKey(slug) : publicSiteHtmlVariantKey(slug, coding);
      await deps.storage.put(key, body, { contentType, cacheControl: SITE_PAGE_CACHE_CONTROL, etag, metadata });
    }
    return true;
  } catch (err) {
    await withdrawPublicPage(deps.storage, slug);
    if (err instanceof NotPublishable || err instanceof StorageNotFoundError) {
      deps.log.info({ slug, reason: err.message }, 'site page not copied to the edge; the API serves it');
      return false;
    }
    throw err;
  }
}

class NotPublishable extends Error {}

type TSyncDeps = Pick<TEdgeDeps, 'db' | 'storage' | 'log' | 'config'>;

/**
 * After a build (or a restore): publishes the site's public copy when the site is public now, else
 * removes it. Then reads the site again: an access change that committed while the copy was being
 * written removed the copy before this write, so the copy is removed once more. An access change is
 * committed before it removes the copy, so one of the two removals always comes after the last write.
 */
export async function syncPublicPage(deps: TSyncDeps, siteId: string, options: { version?: number; page?: TBuiltPage } = {}): Promise<'published' | 'withdrawn' | 'superseded'> {
  // Without an edge there is no public copy to keep or remove: the builder's start removed any left
  // from a time the edge was on (withdrawEveryPublicPage), and nothing writes one since.
  if (!deps.config.edgePublicPages) return 'withdrawn';
  const before = await findSiteById(deps.db, siteId, { includeDeleted: true });
  if (!before) return 'withdrawn';
  // Only the build of the current version publishes: an older build finishing late leaves the newer copy.
  if (options.version !== undefined && before.version !== options.version) return 'superseded';
  if (!isPublicNow(before)) {
    await withdrawPublicPage(deps.storage, before.slug);
    return 'withdrawn';
  }
  let published = false;
  try {
    published = await publishPublicPage(deps, before.slug, options.page);
  } catch (err) {
    // The API still serves the site; the edge falls back to it for whatever is missing.
    deps.log.error({ err, projectId: siteId, slug: before.slug }, 'could not copy a site page for the edge');
  }
  const after = await findSiteById(deps.db, siteId, { includeDeleted: true });
  if (!isPublicNow(after) || after?.slug !== before.slug) {
    // A failure here fails the build, whose retry removes the copy again.
    await withdrawPublicPage(deps.storage, before.slug);
    deps.log.info({ projectId: siteId, slug: before.slug }, 'site access changed while its page was published; public copy removed');
    return 'withdrawn';
  }
  if (!published) return 'withdrawn';
  return 'published';
}

/**
 * Beyond the edge's cache time: nginx counts a cached page's validity in whole seconds from the second
 * its headers arrived (1 s kept means until the end of the next second: up to 2 s), plus a margin for
 * its cached clock and a fetch that was under way when the copy was removed.
 */
const EDGE_CACHE_MARGIN_MS = 1_200;
const WITHDRAW_BATCH = 16;

/**
 * Runs a change that may take access away from sites (a password, an expiry, a deletion, a takedown)
 * so that the edge stops serving them before the caller answers: each site's public copy is removed,
 * the change is made, and the copies are removed again (a build that read the site before the change
 * may have published in between; it also looks again itself). With an edge that keeps pages
 * (EDGE_CACHE_SECONDS), it then waits until what the edge kept has run out. A removal that fails
 * fails the call: the first before anything changed, the second after, and the caller may try again.
 */
export async function changeSiteAccess<T>(deps: Pick<TEdgeDeps, 'storage' | 'config'>, slugs: readonly string[], change: () => Promise<T>): Promise<T> {
  const withdrawAll = async () => {
    // A few sites at a time (an account may own thousands).
    for (let i = 0; i < slugs.length; i += WITHDRAW_BATCH) await Promise.all(slugs.slice(i, i + WITHDRAW_BATCH).map((slug) => withdrawPublicPage(deps.storage, slug)));
  };
  await withdrawAll();
  const result = await change();
  await withdrawAll();
  if (deps.config.edgeCacheMs > 0 && slugs.length > 0) await setTimeout(deps.config.edgeCacheMs + EDGE_CACHE_MARGIN_MS);
  return result;
}
