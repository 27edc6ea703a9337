/**
 * Builds one site: derives each file (images: thumbnail + display copy, cached by content
 * hash), renders the template with the site's model and writes sites/{slug}/index.html last,
 * in one put, so a rebuild swaps the site atomically. The same input gives the same HTML.
 */
import {
  FILE_KINDS,
  ZSiteRenderModelSchema,
  detectFileKind,
  type TDerivedMetadata,
  type TFileKind,
  type TSiteFile,
  type TSiteRenderModel,
} from '@dropsite/shared';
import type { BuilderStorage, TBuildFile, TBuildInput, TBuildProject, TBuildReport, TBuildResult, TBuilderLogger } from './types.ts';
import { deriveImage, isDerivableImage, type TDeriveImageOptions, type TDeriveImageOutcome } from './derive-image.ts';
import { loadSiteRenderer, type SiteRenderer } from './render.ts';
import { publishTemplateAssets } from './publish-assets.ts';

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
const SAFE_SLUG = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export function siteHtmlKey(slug: string): string {
  if (!SAFE_SLUG.test(slug)) throw new Error(`Unsafe site slug: ${JSON.stringify(slug)}`);
  return `sites/${slug}/index.html`;
}

export function createSiteBuilder(deps: TSiteBuilderDeps): SiteBuilder {
  const { storage, log } = deps;
  const concurrency = Math.max(1, Math.floor(deps.concurrency ?? 2));
  /** Derivations in flight by content hash, shared by concurrent builds. */
  const inFlight = new Map<string, Promise<TDeriveImageOutcome>>();
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

  const deriveOnce = (file: TBuildFile): Promise<TDeriveImageOutcome> => {
    const pending = inFlight.get(file.sha256);
    if (pending) return pending.then((outcome) => ({ metadata: outcome.metadata, derived: false }));
    const work = deriveImage(storage, file, deps.imageOptions).finally(() => inFlight.delete(file.sha256));
    inFlight.set(file.sha256, work);
    return work;
  };

  async function derive(file: TBuildFile, kind: TFileKind): Promise<TDeriveImageOutcome> {
    if (kind !== 'image' || !isDerivableImage(file)) return { metadata: { sha256: file.sha256, kind }, derived: false };
    const outcome = await deriveOnce(file);
    return { metadata: { ...outcome.metadata, kind: 'image' }, derived: outcome.derived };
  }

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
    await forEachLimit(files, concurrency, async (file) => {
      const kind = fileKind(file);
      const outcome = await derive(file, kind);
      derived[file.id] = outcome.metadata;
      if (outcome.derived) derivedCount++;
      if (outcome.metadata.error) log.warn({ slug: project.slug, fileId: file.id, error: outcome.metadata.error }, 'file derivation failed');
      done++;
      const share = files.length === 0 ? 1 : done / files.length;
      progress(Math.floor(PROGRESS.start + (PROGRESS.derived - PROGRESS.start) * share), `Processing files (${done}/${files.length})`);
    });

    progress(PROGRESS.rendering, 'Rendering site');
    const model = buildRenderModel(project, files, derived, deps.siteOrigin);
    const html = await (await rendererReady).render(model);
    const body = Buffer.from(html, 'utf8');

    await publishAssets(); // the HTML may reference island bundles: they go up first
    await storage.put(htmlKey, body, { contentType: SITE_HTML_CONTENT_TYPE, cacheControl: SITE_HTML_CACHE_CONTROL });
    progress(PROGRESS.done, 'Published');
    await progress.flush();

    log.info(
      { slug: project.slug, files: files.length, derivedCount, htmlBytes: body.length, ms: Math.round(performance.now() - started) },
      'site built',
    );
    return { htmlKey, htmlBytes: body.length, derived, derivedCount };
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
    },
  };
}

/** The model the template renders: public data only, URLs served by the API, no clock. */
export function buildRenderModel(
  project: TBuildProject,
  files: TBuildFile[],
  derived: Record<string, TDerivedMetadata>,
  siteOrigin: string,
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
    settings: project.settings,
    contactInfo: project.contactInfo,
    files: files.map((file) => toSiteFile(file, derived[file.id] ?? null)),
    publishedAt: isoDate(project.createdAt),
    siteOrigin: siteOrigin.replace(/\/+$/, ''),
  });
}

function toSiteFile(file: TBuildFile, metadata: TDerivedMetadata | null): TSiteFile {
  const base = `/api/files/${encodeURIComponent(file.id)}`;
  const usable = metadata && !metadata.error ? metadata : null;
  const thumbnail = usable?.thumbnail ?? null;
  return {
    id: file.id,
    name: file.name,
    type: file.type,
    size: Math.max(0, Math.trunc(file.size)),
    kind: fileKind(file),
    url: `${base}?mode=preview`,
    downloadUrl: `${base}?mode=download`,
    thumbnailUrl: thumbnail ? `${base}?mode=preview&size=300` : null,
    width: usable?.width ?? null,
    height: usable?.height ?? null,
    thumbnailWidth: thumbnail?.width || null,
    thumbnailHeight: thumbnail?.height || null,
    format: usable?.format ?? null,
    uploadedAt: isoDate(file.createdAt),
    details: metadata?.error ? { previewUnavailable: metadata.error } : {},
  };
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

/** Sends reports in order, one at a time, skipping ones that would not move the bar; a failing report is logged, never fatal. */
function createReporter(report: (r: TBuildReport) => Promise<void>, log: TBuilderLogger, slug: string): TProgressReporter {
  let chain = Promise.resolve();
  let last = -1;
  const send = (progress: number, stage: string) => {
    const value = Math.min(100, Math.max(0, Math.round(progress)));
    if (value <= last) return;
    last = value;
    chain = chain.then(() =>
      report({ progress: value, stage }).catch((error: unknown) => {
        log.warn({ slug, progress: value, error: error instanceof Error ? error.message : String(error) }, 'build progress report failed');
      }),
    );
  };
  return Object.assign(send, { flush: () => chain });
}
