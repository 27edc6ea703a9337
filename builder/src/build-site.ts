/**
 * Builds one site: derives each file (images: thumbnail + display copy; PDFs, office documents,
 * videos, audio, archives and text: see derive-file.ts; all cached by content hash), writes
 * the link picture (og-image-cache.ts), renders the template with the site's model
 * (render-model.ts) in a render thread that also compresses the page (page-renderer.ts), writes
 * the page's Brotli and gzip variants and then the site page (siteHtmlKey) last, in one put, so a
 * rebuild swaps the site atomically; each with a strong ETag of its bytes and, in its metadata, the
 * hashes of its inline scripts (site-csp.ts). The same input gives the
 * same HTML (and the same ETags). This module only orchestrates: the concurrency, the progress
 * reports and the order of the writes.
 */
import { availableParallelism } from 'node:os';
import { STORED_CODINGS, siteHtmlKey, siteHtmlVariantKey, type TArchiveEntryLimits, type TDerivation, type TDerivedMetadata, type TFileKind } from '@dropsite/shared';
import type { BuilderStorage, SiteBuilder, TBuildFile, TBuildInput, TBuildReport, TBuildResult, TBuilderLogger } from './types.ts';
import type { TDeriveImageOptions } from './derive-image.ts';
import { chooseDerivation, deriveFile, type TDeriveFileOptions, type TDeriveFileOutcome } from './derive-file.ts';
import type { TDeriveMediaOptions } from './derive-media.ts';
import type { TDeriveOfficeOptions } from './derive-office.ts';
import { createPdfRenderer } from './pdf-renderer.ts';
import { SCRIPT_HASHES_METADATA } from './site-csp.ts';
import type { TArchiveLimits } from './zip-archive.ts';
import { writeSiteOgImage, type TOgImageCacheDeps } from './og-image-cache.ts';
import { buildRenderModel, fileKindOf } from './render-model.ts';
import { publishTemplateAssets } from './publish-assets.ts';
import { createGate, createLimiter } from './limiter.ts';
import { PAGE_COMPRESSION } from './precompress.ts';
import { createPageRenderer } from './page-renderer.ts';

export interface TSiteBuilderDeps {
  storage: BuilderStorage;
  /** Absolute origin of the public sites, e.g. 'https://dropsite.example'. */
  siteOrigin: string;
  log: TBuilderLogger;
  /** Files derived at the same time within a build. Default 2 (sharp is multi-threaded itself). */
  concurrency?: number;
  /**
   * Threads that render and compress pages (page-renderer.ts); 0 renders on the builder's own thread.
   * Default: one per core, at most 4.
   */
  renderThreads?: number;
  /** Overrides for tests and tuning. */
  serverEntry?: string;
  clientDir?: string;
  imageOptions?: TDeriveImageOptions;
  /** ffprobe/ffmpeg paths and time limits (default: from PATH). */
  mediaOptions?: TDeriveMediaOptions;
  /** soffice path, time limit and input limit (default: from PATH). */
  officeOptions?: Pick<TDeriveOfficeOptions, 'sofficePath' | 'convertTimeoutMs' | 'maxOfficeInputBytes' | 'scratchDir'>;
  pdfOptions?: { maxInputBytes?: number; timeoutMs?: number };
  archiveLimits?: TArchiveLimits;
  /** What the API extracts from an archive on its own (its ARCHIVE_ENTRY_* settings); the tree marks the rest. */
  archiveEntryLimits?: TArchiveEntryLimits;
}

export const SITE_HTML_CONTENT_TYPE = 'text/html; charset=utf-8';
export const SITE_HTML_CACHE_CONTROL = 'public, max-age=0, must-revalidate';

const PROGRESS = { start: 5, derived: 85, rendering: 90, done: 100 } as const;

const WORK_STAGES: Record<TDerivation, string> = {
  image: 'Processing images',
  pdf: 'Reading PDF pages',
  office: 'Converting a document to PDF',
  video: 'Making a video poster',
  audio: 'Reading audio details',
  zip: 'Listing archive contents',
  'unlisted-archive': 'Processing files',
  text: 'Reading text previews',
  none: 'Processing files',
};

export function createSiteBuilder(deps: TSiteBuilderDeps): SiteBuilder {
  const { storage, log } = deps;
  const concurrency = Math.max(1, Math.floor(deps.concurrency ?? 2));
  /**
   * Derivation work (decoding, resizing, rasterising, converting) takes one of `concurrency` slots
   * shared by every build of this builder, so running many builds at once (most of a rebuild is
   * waiting on storage and the database) never multiplies the CPU and memory the work needs.
   */
  const workGate = createLimiter(concurrency);
  /** Derivations in flight by content hash and kind, shared by concurrent builds. */
  const inFlight = new Map<string, Promise<TDeriveFileOutcome>>();
  const pdfRenderer = createPdfRenderer();
  const deriveOptions: TDeriveFileOptions = {
    pdfRenderer,
    officeGate: createGate(),
    workGate,
    ...(deps.imageOptions ? { image: deps.imageOptions } : {}),
    ...(deps.mediaOptions ? { media: deps.mediaOptions } : {}),
    ...(deps.officeOptions ? { office: deps.officeOptions } : {}),
    ...(deps.pdfOptions ? { pdf: deps.pdfOptions } : {}),
    ...(deps.archiveLimits ? { archiveLimits: deps.archiveLimits } : {}),
  };
  const ogDeps: TOgImageCacheDeps = { storage, siteOrigin: deps.siteOrigin, workGate };
  const running = new Set<Promise<unknown>>();
  const pages = createPageRenderer({
    threads: deps.renderThreads ?? Math.min(4, availableParallelism()),
    levels: PAGE_COMPRESSION,
    ...(deps.serverEntry ? { serverEntry: deps.serverEntry } : {}),
  });
  let assets: Promise<void> | null = null;
  let closed = false;

  const publishAssets = (): Promise<void> => {
    assets ??= publishTemplateAssets(storage, deps.clientDir ? { clientDir: deps.clientDir } : {}).then(
      (result) => {
        if (result.published) log.info({ markerKey: result.markerKey, files: result.files }, 'template assets published');
      },
      (error: unknown) => {
        assets = null; // try again on the next call
        throw error;
      },
    );
    return assets;
  };

  /** Same content derived by two files at once (or two builds): one does the work, the other shares it. */
  const derive = (file: TBuildFile, kind: TFileKind, onWork: (derivation: TDerivation) => void): Promise<TDeriveFileOutcome> => {
    const key = `${file.sha256}:${kind}:${chooseDerivation(file, kind)}`;
    const pending = inFlight.get(key);
    if (pending) return pending.then((outcome) => ({ ...outcome, derived: false }));
    const work = deriveFile(storage, file, kind, deriveOptions, onWork).finally(() => inFlight.delete(key));
    inFlight.set(key, work);
    return work;
  };

  async function build(input: TBuildInput, report: (r: TBuildReport) => Promise<void>): Promise<TBuildResult> {
    const started = performance.now();
    const { site, files } = input;
    const htmlKey = siteHtmlKey(site.slug);
    const progress = createReporter(report, log, site.slug);

    progress(PROGRESS.start, 'Preparing files');

    const derived: Record<string, TDerivedMetadata> = {};
    let derivedCount = 0;
    let done = 0;
    let shownProgress: number = PROGRESS.start;
    await forEachLimit(files, concurrency, async (file) => {
      const kind = fileKindOf(file);
      const position = files.indexOf(file) + 1;
      // Slow kinds (a conversion, a poster) say what is going on while they run.
      const outcome = await derive(file, kind, (derivation) => progress(shownProgress, `${WORK_STAGES[derivation]} (${position}/${files.length})`));
      derived[file.id] = outcome.metadata;
      if (outcome.derived) {
        derivedCount++;
        log.info({ slug: site.slug, fileId: file.id, derivation: outcome.derivation, ms: outcome.ms }, 'file derived');
      }
      if (outcome.metadata.error) {
        log.warn({ slug: site.slug, fileId: file.id, error: outcome.metadata.error, cause: outcome.cause }, 'file derivation failed');
      }
      done++;
      const share = files.length === 0 ? 1 : done / files.length;
      shownProgress = Math.floor(PROGRESS.start + (PROGRESS.derived - PROGRESS.start) * share);
      progress(shownProgress, `Processing files (${done}/${files.length})`);
    });

    const derivedAt = performance.now();
    progress(PROGRESS.rendering, 'Rendering site');
    // The picture link previews show; written before the HTML that points at it. Never fatal.
    const ogImageUrl = await writeSiteOgImage(ogDeps, site, files, derived).catch((error: unknown) => {
      log.warn({ slug: site.slug, error: error instanceof Error ? error.message : String(error) }, 'open graph image failed');
      return null;
    });
    const model = buildRenderModel(site, files, derived, deps.siteOrigin, ogImageUrl, deps.archiveEntryLimits);
    const { body, variants, etags, scriptHashes } = await pages.render(model);

    const renderedAt = performance.now();
    await publishAssets(); // the HTML may reference island bundles: they go up first
    // Each representation carries the hashes of the inline scripts it runs, for the API's CSP header.
    const metadata = { [SCRIPT_HASHES_METADATA]: scriptHashes.join(' ') };
    const options = (etag: string) => ({ contentType: SITE_HTML_CONTENT_TYPE, cacheControl: SITE_HTML_CACHE_CONTROL, etag, metadata });
    // Every variant (a variant left from an earlier build would be served in place of this page), both
    // at once, unless storage holds these very bytes; the page only once they are stored. A page whose
    // stored bytes differ (most rebuilds) has different variants too: they are written without a look.
    const pageStored = await isStored(storage, htmlKey, body, options(etags.identity));
    await Promise.all(
      STORED_CODINGS.map(async (coding) => {
        const key = siteHtmlVariantKey(site.slug, coding);
        if (pageStored && (await isStored(storage, key, variants[coding], options(etags[coding])))) return;
        await storage.put(key, variants[coding], options(etags[coding]));
      }),
    );
    if (!pageStored) await storage.put(htmlKey, body, options(etags.identity));
    const storedAt = performance.now();
    progress(PROGRESS.done, 'Published');
    await progress.flush();

    log.info({ slug: site.slug, files: files.length, derivedCount, htmlBytes: body.length, ms: Math.round(performance.now() - started) }, 'site built');
    const page = {
      scriptHashes,
      representations: {
        identity: { bytes: body, etag: etags.identity },
        br: { bytes: variants.br, etag: etags.br },
        gzip: { bytes: variants.gzip, etag: etags.gzip },
      },
    };
    const timings = { deriveMs: derivedAt - started, renderMs: renderedAt - derivedAt, storeMs: storedAt - renderedAt };
    return { htmlKey, htmlBytes: body.length, derived, derivedCount, page, timings };
  }

  return {
    buildSite(input, report) {
      if (closed) return Promise.reject(new Error('The site builder is closed'));
      const job = build(input, report);
      running.add(job);
      const forget = () => running.delete(job);
      job.then(forget, forget);
      return job;
    },
    publishAssets,
    async close() {
      closed = true;
      await Promise.allSettled([...running]);
      await Promise.all([pdfRenderer.close(), pages.close()]);
    },
  };
}

/** Runs `fn` over items with at most `limit` at a time; the first failure rejects. */
async function forEachLimit<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

interface TProgressReporter {
  (progress: number, stage: string): void;
  /** Resolves once every report sent so far has been delivered. */
  flush(): Promise<void>;
}

/** Sends reports in order, one at a time, skipping ones that say nothing new; a failing report is logged, never fatal. */
function createReporter(report: (r: TBuildReport) => Promise<void>, log: TBuilderLogger, slug: string): TProgressReporter {
  let chain = Promise.resolve();
  let last = -1;
  let lastStage = '';
  const send = (progress: number, stage: string) => {
    const value = Math.min(100, Math.max(0, Math.round(progress)));
    // Never backwards; the same value only to say something new.
    if (value < last || (value === last && stage === lastStage)) return;
    last = value;
    lastStage = stage;
    chain = chain.then(() =>
      report({ progress: value, stage }).catch((error: unknown) => {
        log.warn({ slug, progress: value, error: error instanceof Error ? error.message : String(error) }, 'build progress report failed');
      }),
    );
  };
  return Object.assign(send, { flush: () => chain });
}

/**
 * Whether storage already holds exactly these bytes under the key: its strong tag (a hash of the bytes,
 * kept with the object), size and metadata are the new ones. A rebuild that renders the same page (a
 * new version with nothing visible changed, a re-render of every site) then writes nothing, instead of
 * three fsynced objects per site; a page that changed is written as always.
 */
async function isStored(storage: BuilderStorage, key: string, bytes: Buffer, options: { etag: string; metadata: Record<string, string> }): Promise<boolean> {
  const stored = await storage.head(key);
  return stored?.etag === options.etag && stored.size === bytes.length && sameMetadata(stored.metadata, options.metadata);
}

function sameMetadata(stored: Record<string, string> | undefined, wanted: Record<string, string>): boolean {
  const names = Object.keys(wanted);
  return stored !== undefined && Object.keys(stored).length === names.length && names.every((name) => stored[name] === wanted[name]);
}
