/**
 * Builds one site: derives each file (images: thumbnail + display copy; PDFs, office documents,
 * videos, audio, archives and text: see derive-file.ts; all cached by content hash), writes
 * the Open Graph picture, renders the template with the site's model and writes
 * the site page (siteHtmlKey) last, in one put, so a rebuild swaps the site atomically. The same
 * input gives the same HTML.
 */
import { createHash } from 'node:crypto';
import {
  FILE_KINDS,
  ZSiteRenderModelSchema,
  detectFileKind,
  siteCspKey,
  siteHtmlKey,
  siteOgImageKey,
  siteOgImageMarkerKey,
  toPublicContactInfo,
  toPublicSiteSettings,
  type TArchiveEntry,
  type TArchiveEntryLimits,
  type TArchiveSummary,
  type TDerivedMetadata,
  type TFileKind,
  type TPublicFileDetails,
  type TSiteFile,
  type TSiteRenderModel,
} from '@dropsite/shared';
import type { BuilderStorage, TBuildFile, TBuildInput, TBuildProject, TBuildReport, TBuildResult, TBuilderLogger } from './types.ts';
import type { TDeriveImageOptions } from './derive-image.ts';
import type { TDerivation } from './derive-cache.ts';
import { chooseDerivation, deriveFile, type TDeriveFileOptions, type TDeriveFileOutcome } from './derive-file.ts';
import type { TDeriveMediaOptions } from './derive-media.ts';
import type { TDeriveOfficeOptions } from './derive-office.ts';
import { createPdfRenderer } from './pdf-renderer.ts';
import { inlineScriptHashes, type TSiteCspSidecar } from './site-csp.ts';
import { markEntryExtractability, type TArchiveLimits } from './zip-archive.ts';
import { OG_CONTENT_TYPE, renderOgImage, type TOgImageInput } from './og-image.ts';
import { loadSiteRenderer, type SiteRenderer } from './render.ts';
import { publishTemplateAssets } from './publish-assets.ts';
import { createGate, createLimiter } from './limiter.ts';

export interface TSiteBuilderDeps {
  storage: BuilderStorage;
  /** Absolute origin of the public sites, e.g. 'https://dropsite.example'. */
  siteOrigin: string;
  log: TBuilderLogger;
  /** Files derived at the same time within a build. Default 2 (sharp is multi-threaded itself). */
  concurrency?: number;
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

export interface SiteBuilder {
  buildSite(input: TBuildInput, report: (r: TBuildReport) => Promise<void>): Promise<TBuildResult>;
  /** Uploads the template's island bundles once per template version (buildSite also makes sure of it). */
  publishAssets(): Promise<void>;
  /** Waits for running builds; later calls to buildSite fail. */
  close(): Promise<void>;
}

export const SITE_HTML_CONTENT_TYPE = 'text/html; charset=utf-8';
export const SITE_HTML_CACHE_CONTROL = 'public, max-age=0, must-revalidate';

const PROGRESS = { start: 5, derived: 85, rendering: 90, done: 100 } as const;
/** Archive tree nodes a site page carries; the rest stays in the derived metadata (the page would get heavy). */
export const SITE_ARCHIVE_MAX_NODES = 2500;
/** Bumped when the Open Graph picture's design changes, so every site gets the new one. */
const OG_DESIGN_VERSION = 1;

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
  const running = new Set<Promise<unknown>>();
  let renderer: Promise<SiteRenderer> | null = null;
  let assets: Promise<void> | null = null;
  let closed = false;

  const getRenderer = () => (renderer ??= loadSiteRenderer(deps.serverEntry ? { serverEntry: deps.serverEntry } : {}));

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
    const { project, files } = input;
    const htmlKey = siteHtmlKey(project.slug);
    const progress = createReporter(report, log, project.slug);

    progress(PROGRESS.start, 'Preparing files');
    const rendererReady = getRenderer(); // load the template while files are derived
    rendererReady.catch(() => {});

    const derived: Record<string, TDerivedMetadata> = {};
    let derivedCount = 0;
    let done = 0;
    let shownProgress: number = PROGRESS.start;
    await forEachLimit(files, concurrency, async (file) => {
      const kind = fileKind(file);
      const position = files.indexOf(file) + 1;
      // Slow kinds (a conversion, a poster) say what is going on while they run.
      const outcome = await derive(file, kind, (derivation) => progress(shownProgress, `${WORK_STAGES[derivation]} (${position}/${files.length})`));
      derived[file.id] = outcome.metadata;
      if (outcome.derived) {
        derivedCount++;
        log.info({ slug: project.slug, fileId: file.id, derivation: outcome.derivation, ms: outcome.ms }, 'file derived');
      }
      if (outcome.metadata.error) {
        log.warn({ slug: project.slug, fileId: file.id, error: outcome.metadata.error, cause: outcome.cause }, 'file derivation failed');
      }
      done++;
      const share = files.length === 0 ? 1 : done / files.length;
      shownProgress = Math.floor(PROGRESS.start + (PROGRESS.derived - PROGRESS.start) * share);
      progress(shownProgress, `Processing files (${done}/${files.length})`);
    });

    progress(PROGRESS.rendering, 'Rendering site');
    // The picture link previews show; written before the HTML that points at it. Never fatal.
    const ogImageUrl = await writeOgImage(project, files, derived).catch((error: unknown) => {
      log.warn({ slug: project.slug, error: error instanceof Error ? error.message : String(error) }, 'open graph image failed');
      return null;
    });
    const model = buildRenderModel(project, files, derived, deps.siteOrigin, ogImageUrl, deps.archiveEntryLimits);
    const html = await (await rendererReady).render(model);
    const body = Buffer.from(html, 'utf8');

    await publishAssets(); // the HTML may reference island bundles: they go up first
    // The page's inline script hashes for the API's CSP header, written before the HTML they allow.
    const csp: TSiteCspSidecar = { scriptHashes: inlineScriptHashes(html) };
    await storage.put(siteCspKey(project.slug), JSON.stringify(csp), { contentType: 'application/json', cacheControl: 'no-cache' });
    await storage.put(htmlKey, body, { contentType: SITE_HTML_CONTENT_TYPE, cacheControl: SITE_HTML_CACHE_CONTROL });
    progress(PROGRESS.done, 'Published');
    await progress.flush();

    log.info(
      { slug: project.slug, files: files.length, derivedCount, htmlBytes: body.length, ms: Math.round(performance.now() - started) },
      'site built',
    );
    return { htmlKey, htmlBytes: body.length, derived, derivedCount };
  }

  /** Writes the site's link picture (siteOgImageKey) unless the stored one was made from the same input; answers its absolute URL. */
  async function writeOgImage(project: TBuildProject, files: TBuildFile[], derived: Record<string, TDerivedMetadata>): Promise<string> {
    const key = siteOgImageKey(project.slug);
    const input: TOgImageInput = {
      title: project.title,
      authorName: project.authorName,
      theme: project.theme,
      fileCount: files.length,
      backgroundKey: ogBackgroundKey(files, derived),
    };
    const inputHash = createHash('sha256').update(JSON.stringify({ v: OG_DESIGN_VERSION, ...input })).digest('hex');
    const markerKey = siteOgImageMarkerKey(project.slug);
    // The marker is written after the picture, so a marker with this input means the picture is there.
    if (!(await isSameOgInput(markerKey, inputHash))) {
      const png = await workGate(() => renderOgImage(storage, input));
      await storage.put(key, png, { contentType: OG_CONTENT_TYPE, cacheControl: 'public, max-age=3600' });
      await storage.put(markerKey, JSON.stringify({ inputHash }), { contentType: 'application/json' });
    }
    return `${deps.siteOrigin.replace(/\/+$/, '')}/${encodeURIComponent(project.slug)}/og.png`;
  }

  async function isSameOgInput(markerKey: string, inputHash: string): Promise<boolean> {
    try {
      const { body } = await storage.get(markerKey); // a missing marker throws: not the same
      let text = '';
      for await (const chunk of body) text += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8');
      const parsed: unknown = JSON.parse(text);
      return typeof parsed === 'object' && parsed !== null && (parsed as { inputHash?: unknown }).inputHash === inputHash;
    } catch {
      return false;
    }
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
      await pdfRenderer.close();
    },
  };
}

/**
 * The model the template renders: public data only (it is in the page and in every island's props),
 * URLs served by the API, no clock. The schema is strict: a field it does not name fails the build.
 */
export function buildRenderModel(
  project: TBuildProject,
  files: TBuildFile[],
  derived: Record<string, TDerivedMetadata>,
  siteOrigin: string,
  ogImageUrl: string | null = null,
  archiveEntryLimits?: TArchiveEntryLimits,
): TSiteRenderModel {
  return ZSiteRenderModelSchema.parse({
    projectId: project.id,
    slug: project.slug,
    title: project.title,
    subLine: project.subLine,
    tagLine: project.tagLine,
    description: project.description,
    authorName: project.authorName,
    template: project.template,
    theme: project.theme,
    // Picked field by field: the owner's notification address and webhook never reach a page.
    settings: toPublicSiteSettings(project.settings),
    contactInfo: toPublicContactInfo(project.contactInfo),
    files: files.map((file) => toSiteFile(file, derived[file.id] ?? null, archiveEntryLimits)),
    publishedAt: isoDate(project.createdAt),
    siteOrigin: siteOrigin.replace(/\/+$/, ''),
    ogImageUrl,
  });
}

function toSiteFile(file: TBuildFile, metadata: TDerivedMetadata | null, archiveEntryLimits?: TArchiveEntryLimits): TSiteFile {
  const base = `/api/files/${encodeURIComponent(file.id)}`;
  const usable = metadata && !metadata.error ? metadata : null;
  const thumbnail = usable?.thumbnail ?? null;
  const kind = fileKind(file);
  return {
    id: file.id,
    name: file.name,
    type: file.type,
    size: Math.max(0, Math.trunc(file.size)),
    kind,
    url: `${base}?mode=preview`,
    downloadUrl: `${base}?mode=download`,
    thumbnailUrl: thumbnail ? `${base}?mode=preview&size=300` : null,
    width: usable?.width ?? null,
    height: usable?.height ?? null,
    thumbnailWidth: thumbnail?.width || null,
    thumbnailHeight: thumbnail?.height || null,
    format: usable?.format ?? null,
    uploadedAt: isoDate(file.createdAt),
    details: publicDetails(base, kind, metadata, archiveEntryLimits),
  };
}

/** What a viewer needs beyond the basics; only URLs of our API, never storage keys. */
function publicDetails(base: string, kind: TFileKind, metadata: TDerivedMetadata | null, archiveEntryLimits?: TArchiveEntryLimits): TPublicFileDetails {
  if (!metadata) return {};
  if (metadata.error) return { previewUnavailable: metadata.error };
  const details: TPublicFileDetails = {};
  if (metadata.pages !== undefined) details.pages = metadata.pages;
  if (metadata.pdf) details.pdfUrl = `${base}/pdf`;
  else if (kind === 'pdf' && metadata.pages !== undefined) details.pdfUrl = `${base}?mode=preview`;
  if (metadata.kind === 'video' && metadata.display) details.posterUrl = `${base}/poster`;
  if (metadata.media) details.media = metadata.media;
  // Marked on every build (not when listed and cached): the API's current limits decide what it extracts.
  if (metadata.archive) details.archive = markEntryExtractability(capArchiveTree(metadata.archive, SITE_ARCHIVE_MAX_NODES), archiveEntryLimits);
  if (metadata.text) details.text = metadata.text;
  return details;
}

/**
 * At most `maxNodes` nodes of the tree, level by level, so the top folders always show;
 * `truncated` tells the viewer that the archive holds more than the page lists. Totals stay whole.
 */
export function capArchiveTree(summary: TArchiveSummary, maxNodes: number): TArchiveSummary {
  let count = 0;
  const countNodes = (entries: TArchiveEntry[]) => {
    for (const e of entries) {
      count++;
      if (e.children) countNodes(e.children);
    }
  };
  countNodes(summary.entries);
  if (count <= maxNodes) return summary;

  const copy = (e: TArchiveEntry): TArchiveEntry => ({ ...e, ...(e.children ? { children: [] } : {}) });
  const roots: TArchiveEntry[] = [];
  let budget = maxNodes;
  let level: Array<{ source: TArchiveEntry; target: TArchiveEntry[] }> = summary.entries.map((source) => ({ source, target: roots }));
  while (level.length > 0 && budget > 0) {
    const next: typeof level = [];
    for (const { source, target } of level) {
      if (budget === 0) break;
      const node = copy(source);
      target.push(node);
      budget--;
      for (const child of source.children ?? []) next.push({ source: child, target: node.children! });
    }
    level = next;
  }
  return { ...summary, entries: roots, truncated: true };
}

/** The first image's display copy (or else a video's poster) makes the Open Graph background. */
function ogBackgroundKey(files: TBuildFile[], derived: Record<string, TDerivedMetadata>): string | null {
  const usable = (f: TBuildFile) => {
    const m = derived[f.id];
    return m && !m.error && m.display ? m.display.key : null;
  };
  for (const file of files) if (fileKind(file) === 'image' && usable(file)) return usable(file);
  for (const file of files) if (fileKind(file) === 'video' && usable(file)) return usable(file);
  return null;
}

function fileKind(file: Pick<TBuildFile, 'kind' | 'name' | 'type'>): TFileKind {
  return (FILE_KINDS as readonly string[]).includes(file.kind) ? (file.kind as TFileKind) : detectFileKind(file.name, file.type);
}

function isoDate(epochMs: number): string {
  const date = new Date(epochMs);
  return Number.isNaN(date.getTime()) ? new Date(0).toISOString() : date.toISOString();
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
