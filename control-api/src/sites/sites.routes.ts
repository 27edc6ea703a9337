/** GET /{slug}: the built site from storage, or a page that says why there is none. */
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { Router, type Response } from 'express';
import { STORED_CODINGS, TEMPLATE_CATALOGUE, siteHtmlKey, sitePrefix, siteHtmlVariantKey, templateAssetKey, templateAssetVariantKey, type TStoredCoding } from '@dropsite/shared';
import { assetContentType } from '@dropsite/builder';
import type { TSitesDeps } from './sites.deps.ts';
import type { TSiteRow } from '../db/tables.ts';
import { StorageNotFoundError, type Storage } from '../storage/storage.ts';
import { sendVariant, type TOpenedVariant, type TVariantSource } from '../http/send-variant.ts';
import type { TContentCoding } from '../http/content-coding.ts';
import { principalOf } from '../access/principal.ts';
import { DEMO_SITE_SLUGS, isSiteSlug } from '../site-records/demo-site-records.ts';
import { REFUSAL_CACHE_CONTROL, SITE_PAGE_CACHE_CONTROL, SITE_PAGE_SECURITY_HEADERS, siteCacheControl } from './site-access.ts';
import { buildProgressOf, goneFactsOf, openSiteBySlug, removedSiteBySlug } from './sites.service.ts';
import { ASSET_CSP, inlineScriptHashesOf, siteCsp, storedScriptHashes } from './site-csp.ts';
import { buildingPage, demoPreparingPage, expiredPage, failedPage, removedPage, takenDownPage } from './status-pages.ts';
import { passwordGatePage } from './password-gate.ts';

/** A stored object and its compressed variants (keys from storage-keys.ts), as sendVariant reads them. */
function storedVariants(storage: Storage, identityKey: string, variantKey: (coding: TStoredCoding) => string): TVariantSource {
  const keyOf = (coding: TContentCoding) => (coding === 'identity' ? identityKey : variantKey(coding));
  return {
    codings: STORED_CODINGS,
    async open(coding, range) {
      try {
        const object = await storage.get(keyOf(coding), range);
        return { body: object.body, size: object.size, etag: object.etag, metadata: object.metadata };
      } catch (err) {
        if (err instanceof StorageNotFoundError) return null;
        throw err;
      }
    },
    async stat(coding) {
      const info = await storage.head(keyOf(coding));
      return info && { size: info.size, etag: info.etag };
    },
  };
}

/**
 * A site page and its variants, each sent with the CSP of its own inline scripts: their hashes are
 * stored with its bytes (read with them, so never another build's), and only a body or its headers
 * need them, never a 304. A page stored without them (built before they were kept with it) is sent
 * uncompressed, hashed from its HTML.
 */
function sitePageSource(storage: Storage, slug: string): TVariantSource {
  return {
    ...storedVariants(storage, siteHtmlKey(slug), (coding) => siteHtmlVariantKey(slug, coding)),
    async prepare(variant, coding, res) {
      const hashes = storedScriptHashes(variant.metadata);
      if (hashes) {
        res.set('Content-Security-Policy', siteCsp(hashes));
        return variant;
      }
      if (coding !== 'identity') {
        variant.body.destroy();
        return null;
      }
      // A page built before the hashes were stored: hashed from its HTML, then sent from memory.
      const bytes = variant.bytes ?? (await buffer(variant.body));
      res.set('Content-Security-Policy', siteCsp(inlineScriptHashesOf(bytes)));
      return inMemoryVariant(bytes, variant.etag, variant.metadata);
    },
  };
}

/** Page variants kept in memory at most (their bytes together), and the largest one kept. */
const PAGE_MEMO_BYTES = 32 * 1024 * 1024;
const PAGE_MEMO_MAX_VARIANT = 512 * 1024;

interface TPageMemoEntry {
  /** The site's row the variant was read under: the entry holds only while the read cache answers that same row. */
  row: TSiteRow;
  /** The mark of writes under the site's folder through this process's storage before the read (storage.changes). */
  changes: number;
  size: number;
  etag: string | undefined;
  metadata: Readonly<Record<string, string>> | undefined;
  bytes: Buffer;
}

/**
 * A site's page variants in memory, by slug and coding, where the site's row comes from the read
 * cache: a build writes its page before it marks the site live (a write to projects, which replaces
 * the cached row, in this process or any other; on PostgreSQL once its notification arrives, a
 * moment after the commit). An entry read under an older row, or before anything in the site's
 * folder was written or deleted through this process's storage, is never used, so a rebuilt, locked
 * or deleted page is never answered from here; another site's publish leaves it be. Bounded by
 * PAGE_MEMO_BYTES, oldest out first.
 */
function createPageMemo(storage: Storage) {
  const pageChanges = (slug: string) => storage.changes?.(sitePrefix(slug)) ?? Number.NaN;
  const entries = new Map<string, TPageMemoEntry>();
  let bytes = 0;
  const drop = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes.length;
  };
  return {
    get(slug: string, coding: TContentCoding, row: TSiteRow): TPageMemoEntry | undefined {
      const key = `${slug}\u0000${coding}`;
      const entry = entries.get(key);
      if (entry && (entry.row !== row || entry.changes !== pageChanges(slug))) {
        drop(key);
        return undefined;
      }
      return entry;
    },
    /** The mark of writes under the site's folder so far: taken before a read, kept with what it read. */
    changes: pageChanges,
    set(slug: string, coding: TContentCoding, entry: TPageMemoEntry): void {
      if (entry.bytes.length > PAGE_MEMO_MAX_VARIANT) return;
      const key = `${slug}\u0000${coding}`;
      drop(key);
      while (bytes + entry.bytes.length > PAGE_MEMO_BYTES && entries.size > 0) drop(entries.keys().next().value!);
      entries.set(key, entry);
      bytes += entry.bytes.length;
    },
  };
}

/** A site page's variants through the memo: a hit opens nothing in storage, a miss keeps what it read. */
function memoizedPageSource(source: TVariantSource, memo: ReturnType<typeof createPageMemo>, slug: string, row: TSiteRow): TVariantSource {
  return {
    ...source,
    async stat(coding) {
      const entry = memo.get(slug, coding, row);
      return entry ? { size: entry.size, etag: entry.etag } : source.stat(coding);
    },
    async open(coding, range) {
      const entry = range === undefined ? memo.get(slug, coding, row) : undefined;
      if (entry) return inMemoryVariant(entry.bytes, entry.etag, entry.metadata);
      const changes = memo.changes(slug);
      const opened = await source.open(coding, range);
      if (!opened || range !== undefined || opened.size > PAGE_MEMO_MAX_VARIANT) return opened;
      const bytes = await buffer(opened.body);
      memo.set(slug, coding, { row, changes, size: bytes.length, etag: opened.etag, metadata: opened.metadata, bytes });
      return inMemoryVariant(bytes, opened.etag, opened.metadata);
    },
  };
}

/** A variant whose bytes are in memory: sent in one write, its stream made only if something reads it. */
function inMemoryVariant(bytes: Buffer, etag: string | undefined, metadata: Readonly<Record<string, string>> | undefined): TOpenedVariant {
  let body: Readable | undefined;
  return {
    get body() {
      body ??= Readable.from([bytes]);
      return body;
    },
    bytes,
    size: bytes.length,
    etag,
    metadata,
  };
}

/** Seconds a demo's holding page waits before it asks again. */
const DEMO_RETRY_SECONDS = 5;

/** The name of the template whose demo lives at this slug. */
function demoTemplateName(slug: string): string {
  return Object.values(TEMPLATE_CATALOGUE).find((t) => t.demoPath === `/${slug}`)?.name ?? 'Demo';
}

function sendPage(res: Response, status: number, html: string): void {
  res.status(status).set({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': REFUSAL_CACHE_CONTROL }).send(html);
}

export function createSiteRoutes(deps: TSitesDeps): Router {
  const router = Router();
  // Only where the site's row comes from the read cache: elsewhere each view reads storage.
  const pageMemo = deps.caches.reads && deps.storage.changes ? createPageMemo(deps.storage) : undefined;

  router.get('/:slug', async (req, res, next) => {
    const slug = req.params.slug;
    // A creator's slug, or a demo site's reserved path (the dashboard's own pages were matched before).
    if (!isSiteSlug(slug)) {
      next();
      return;
    }
    // Status pages run no script; a built page's own inline scripts are allowed by hash below.
    // The edge sends the same headers with a public copy (edge/public-page.ts).
    res.set({ ...SITE_PAGE_SECURITY_HEADERS, 'Content-Security-Policy': siteCsp([]) });
    const { site, access } = await openSiteBySlug(deps, principalOf(res), slug);
    if (!site || access === 'missing') {
      // A site an operator took down says so (451, Unavailable For Legal Reasons); one its creator
      // deleted says it was removed (410) while its record is kept. Their files stay 404.
      const removed = await removedSiteBySlug(deps, slug);
      if (removed?.reason === 'taken-down') return sendPage(res, 451, takenDownPage());
      if (removed?.reason === 'removed') return sendPage(res, 410, removedPage(removed.facts));
      if (removed?.reason === 'expired') return sendPage(res, 410, expiredPage(removed.facts));
      // A demo site not built yet (the first start builds them in the background): a page that
      // retries by itself, never the 404 page.
      if (deps.config.demoSites && DEMO_SITE_SLUGS.has(slug)) {
        res.set('Retry-After', String(DEMO_RETRY_SECONDS));
        return sendPage(res, 503, demoPreparingPage(demoTemplateName(slug), DEMO_RETRY_SECONDS));
      }
      // No site at this address: the product's one 404 page, as for any other unknown path.
      res.set('Cache-Control', REFUSAL_CACHE_CONTROL);
      next();
      return;
    }
    if (access === 'expired') return sendPage(res, 410, expiredPage(goneFactsOf(site)));
    if (access === 'locked') return sendPage(res, 401, await passwordGatePage(deps, slug, site));

    res.status(200).set({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': siteCacheControl(site, SITE_PAGE_CACHE_CONTROL) });
    const page = sitePageSource(deps.storage, slug);
    if (await sendVariant(req, res, pageMemo ? memoizedPageSource(page, pageMemo, slug, site) : page)) return;
    // No page stored yet: the site is still building (or its build failed).
    res.removeHeader('Vary');
    if (site.status === 'failed') return sendPage(res, 503, failedPage());
    const build = await buildProgressOf(deps, site.id);
    sendPage(res, 202, buildingPage(build?.progress ?? 0, build?.stage ?? 'Queued'));
  });

  /** Shared, content-hashed template assets published by the builder. */
  router.get('/_astro/:name', async (req, res, next) => {
    const name = req.params.name;
    // A bundle by its own name; its stored variants (.br, .gz) are sent for it, never asked for by theirs.
    if (!/^[\w.-]+$/.test(name) || name.startsWith('.') || /\.(?:br|gz)$/.test(name)) {
      next();
      return;
    }
    res.set({
      'Content-Type': assetContentType(name),
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': ASSET_CSP,
      // Public and content-hashed: the wizard's sandboxed preview (an opaque origin) loads them as modules.
      'Access-Control-Allow-Origin': '*',
      'Cross-Origin-Resource-Policy': 'cross-origin',
    });
    const source = storedVariants(deps.storage, templateAssetKey(name), (coding) => templateAssetVariantKey(name, coding));
    if (await sendVariant(req, res, source, { ranges: true })) return;
    for (const header of ['Content-Type', 'Cache-Control', 'Content-Security-Policy', 'Access-Control-Allow-Origin', 'Cross-Origin-Resource-Policy', 'Vary'])
      res.removeHeader(header);
    next();
  });

  return router;
}
