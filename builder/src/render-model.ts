/**
 * The model the template renders, made from a build's input and what its files derived. Pure:
 * no storage, no clock, no I/O, so the API's draft preview and the benches make the same model
 * a build does.
 */
import {
  FILE_KINDS,
  HERO_LAYOUTS,
  ZSiteRenderModelSchema,
  detectFileKind,
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
import type { TBuildFile, TBuildSite } from './types.ts';
import { markEntryExtractability } from './zip-archive.ts';

/** Archive tree nodes a site page carries; the rest stays in the derived metadata (the page would get heavy). */
export const SITE_ARCHIVE_MAX_NODES = 2500;

/**
 * The model the template renders: public data only (it is in the page and in every island's props),
 * URLs served by the API, no clock. The schema is strict: a field it does not name fails the build.
 */
export function buildRenderModel(
  site: TBuildSite,
  files: TBuildFile[],
  derived: Record<string, TDerivedMetadata>,
  siteOrigin: string,
  ogImageUrl: string | null = null,
  archiveEntryLimits?: TArchiveEntryLimits,
): TSiteRenderModel {
  return ZSiteRenderModelSchema.parse({
    projectId: site.id,
    slug: site.slug,
    title: site.title,
    subLine: site.subLine,
    tagLine: site.tagLine,
    description: site.description,
    authorName: site.authorName,
    template: site.template,
    theme: site.theme,
    ...(site.colorMode ? { colorMode: site.colorMode } : {}),
    ...(site.visitorModeToggle ? { visitorModeToggle: true } : {}),
    // An unknown stored value leaves the template's default rather than failing the build.
    heroLayout: (HERO_LAYOUTS as readonly string[]).includes(site.heroLayout ?? '') ? site.heroLayout : null,
    // Picked field by field: the owner's notification address and webhook never reach a page.
    settings: toPublicSiteSettings(site.settings),
    contactInfo: toPublicContactInfo(site.contactInfo),
    files: files.map((file) => toSiteFile(file, derived[file.id] ?? null, archiveEntryLimits)),
    publishedAt: isoDate(site.createdAt),
    // Only when set: the page says when its link stops working.
    ...(typeof site.expiresAt === 'number' ? { expiresAt: new Date(site.expiresAt).toISOString() } : {}),
    siteOrigin: siteOrigin.replace(/\/+$/, ''),
    ogImageUrl,
  });
}

/** The file's stored kind when it is one we know, else what its name and type say (rows older than a kind). */
export function fileKindOf(file: Pick<TBuildFile, 'kind' | 'name' | 'type'>): TFileKind {
  return (FILE_KINDS as readonly string[]).includes(file.kind) ? (file.kind as TFileKind) : detectFileKind(file.name, file.type);
}

/**
 * A replaced file keeps its id, and public file answers may be cached for good: its URLs name the
 * version, so browsers and shared caches fetch the new bytes (the API ignores the parameter).
 */
function versioned(url: string, version: number | undefined): string {
  if (version === undefined || version <= 1) return url;
  return `${url}${url.includes('?') ? '&' : '?'}v=${version}`;
}

function toSiteFile(file: TBuildFile, metadata: TDerivedMetadata | null, archiveEntryLimits?: TArchiveEntryLimits): TSiteFile {
  const base = `/api/files/${encodeURIComponent(file.id)}`;
  const v = (url: string) => versioned(url, file.version);
  const usable = metadata && !metadata.error ? metadata : null;
  const thumbnail = usable?.thumbnail ?? null;
  const kind = fileKindOf(file);
  return {
    id: file.id,
    name: file.name,
    type: file.type,
    size: Math.max(0, Math.trunc(file.size)),
    kind,
    url: v(`${base}?mode=preview`),
    downloadUrl: v(`${base}?mode=download`),
    thumbnailUrl: thumbnail ? v(`${base}?mode=preview&size=300`) : null,
    width: usable?.width ?? null,
    height: usable?.height ?? null,
    thumbnailWidth: thumbnail?.width || null,
    thumbnailHeight: thumbnail?.height || null,
    format: usable?.format ?? null,
    uploadedAt: isoDate(file.createdAt),
    group: file.group ?? null,
    details: publicDetails(base, kind, metadata, archiveEntryLimits, file.version),
  };
}

/** What a viewer needs beyond the basics; only URLs of our API, never storage keys. */
function publicDetails(base: string, kind: TFileKind, metadata: TDerivedMetadata | null, archiveEntryLimits?: TArchiveEntryLimits, version?: number): TPublicFileDetails {
  if (!metadata) return {};
  if (metadata.error) return { previewUnavailable: metadata.error };
  const details: TPublicFileDetails = {};
  if (metadata.pages !== undefined) details.pages = metadata.pages;
  if (metadata.pdf) details.pdfUrl = versioned(`${base}/pdf`, version);
  else if (kind === 'pdf' && metadata.pages !== undefined) details.pdfUrl = versioned(`${base}?mode=preview`, version);
  if (details.pdfUrl && metadata.display) {
    details.firstPage = { url: versioned(`${base}/first-page`, version), width: metadata.display.width, height: metadata.display.height };
  }
  if (metadata.kind === 'video' && metadata.display) details.posterUrl = versioned(`${base}/poster`, version);
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

function isoDate(epochMs: number): string {
  const date = new Date(epochMs);
  return Number.isNaN(date.getTime()) ? new Date(0).toISOString() : date.toISOString();
}
