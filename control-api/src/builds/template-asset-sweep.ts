/**
 * Removes the template asset versions no stored page refers to any more. A template upgrade
 * publishes the new version's bundles next to the old ones (builder/src/publish-assets.ts) and
 * rebuilds every site; the old version's files stay until this sweep finds that no stored page
 * (sites/{slug}/index.html, its public copy under public/{slug}/, their Brotli and gzip variants;
 * live, locked, expiring and demo sites alike) refers to them, and for a grace period after that.
 *
 * What a page refers to is read from its stored bytes (the /_astro/ names it references), so a page
 * built before versions were tracked, a half-finished build's variant or a public copy counts like any
 * other. A page refers to the current version when that version lists every name it references (the
 * names are content hashes: the bundles a referenced bundle loads are then part of that version too);
 * otherwise to every version that lists all of them, or, when none does, to every version that lists
 * any of them (names no published version lists are left out: the sweep never removes those). What is never removed: the current version (the newest marker, and the versions the
 * caller keeps: the template this process builds with), a version some page refers to, a version
 * within its grace period (counted from when a sweep first found it unreferenced, noted in
 * assets/.unreferenced-{version}), a file name any kept version lists (versions share files), and a
 * name some page references directly. A swept version loses its files, then its note, then its marker
 * last: a sweep that stops half-way leaves the marker, and the next one finishes the work. Two
 * processes sweeping at once delete the same objects, which is harmless.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { buffer } from 'node:stream/consumers';
import { promisify } from 'node:util';
import { brotliDecompress, gunzip } from 'node:zlib';
import {
  PUBLIC_SITES_PREFIX,
  SITES_PREFIX,
  STORED_CODINGS,
  TEMPLATE_ASSETS_MARKER_PREFIX,
  TEMPLATE_ASSETS_UNREFERENCED_PREFIX,
  storedPageCoding,
  templateAssetKey,
  templateAssetVariantKey,
  templateAssetsMarkerKey,
  templateAssetsMarkerVersion,
  templateAssetsUnreferencedKey,
  templateAssetsUnreferencedVersion,
} from '@dropsite/shared';
import { readAssetManifest, templatePaths } from '@dropsite/builder';
import { z } from 'zod';
import type { TConfig } from '../config/config.ts';
import { StorageNotFoundError, type Storage, type TObjectInfo } from '../storage/storage.ts';
import { runPeriodically, type TPeriodicTask } from '../periodic-task.ts';

const brotli = promisify(brotliDecompress);
const gunzipAsync = promisify(gunzip);

/** How often the API process sweeps; the grace period is counted in hours. */
export const TEMPLATE_ASSET_SWEEP_INTERVAL_MS = 60 * 60_000;

/** What a marker holds: the manifest publish-assets.ts wrote (paths under _astro/ and their hashes). */
const ZPublishedManifest = z.object({
  hash: z.string(),
  files: z.array(z.object({ path: z.string().min(1), sha256: z.string() })),
});

const ZUnreferencedNote = z.object({ since: z.number().int().nonnegative() });

/** The /_astro/ names a page references: script and style URLs, island component and renderer URLs. */
const ASSET_REFERENCE = /\/_astro\/([\w-][\w.-]*(?:\/[\w-][\w.-]*)*)/g;

export interface TTemplateAssetSweepDeps {
  storage: Storage;
  log: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void; error(obj: object, msg?: string): void };
  clock: { now(): number };
}

export interface TTemplateAssetSweepOptions {
  /** How long a version stays after a sweep first found no page referring to it. */
  graceMs: number;
  /** Versions never swept besides the newest published one: the template this process builds with. */
  keepVersions?: readonly string[];
  /** Remembers what each stored page references between runs of one process (keyed by its size, time and tag). */
  pageCache?: TPageReferenceCache;
}

export interface TTemplateAssetSweepResult {
  /** Published versions found. */
  versions: number;
  /** The versions treated as current (never swept). */
  current: string[];
  /** Stored pages read or recalled. */
  pages: number;
  /** Versions some page refers to (current ones included). */
  referenced: string[];
  /** Unreferenced versions still within their grace period, with when that period ends. */
  waiting: { version: string; removableAt: number }[];
  /** Versions removed by this run, each with how many of its files went (files other versions share stay). */
  removed: { version: string; files: number; objects: number }[];
  /** Versions whose removal failed part-way; their marker stays and the next run goes on. */
  failed: { version: string; error: string }[];
}

export type TPageReferenceCache = Map<string, { stamp: string; names: string[] }>;

export function createPageReferenceCache(): TPageReferenceCache {
  return new Map();
}

interface TVersion {
  version: string;
  markerKey: string;
  publishedAt: number;
  files: Set<string>;
}

/** One sweep; see the module comment for what it keeps. */
export async function sweepTemplateAssets(deps: TTemplateAssetSweepDeps, options: TTemplateAssetSweepOptions): Promise<TTemplateAssetSweepResult> {
  const { storage, log } = deps;
  const now = deps.clock.now();
  const versions = await readVersions(storage);
  const result: TTemplateAssetSweepResult = { versions: versions.length, current: [], pages: 0, referenced: [], waiting: [], removed: [], failed: [] };
  const notes = await readNotes(storage);

  // A note whose version is no longer published is what a finished (or retried) removal left.
  const published = new Set(versions.map((v) => v.version));
  for (const [version] of notes) {
    if (!published.has(version)) await storage.delete(templateAssetsUnreferencedKey(version));
  }
  if (versions.length === 0) return result;

  const current = currentVersions(versions, options.keepVersions ?? []);
  result.current = [...current].sort();
  const candidates = versions.filter((v) => !current.has(v.version));
  if (candidates.length === 0) return result;

  // Only with an older version about is there anything to read the pages for.
  const pages = await readPageReferences(storage, options.pageCache);
  result.pages = pages.length;
  const directlyReferenced = new Set(pages.flat());
  const referenced = new Set<string>();
  for (const names of pages) for (const version of versionsReferredToBy(names, versions, current)) referenced.add(version);
  for (const version of current) referenced.add(version);
  result.referenced = [...referenced].filter((version) => published.has(version)).sort();

  const removable: TVersion[] = [];
  for (const version of candidates) {
    const note = notes.get(version.version);
    if (referenced.has(version.version)) {
      if (note !== undefined) await storage.delete(templateAssetsUnreferencedKey(version.version)); // in use again: its grace starts over later
      continue;
    }
    if (!note) {
      await storage.put(templateAssetsUnreferencedKey(version.version), JSON.stringify({ since: now }), { contentType: 'application/json', cacheControl: 'no-cache' });
      result.waiting.push({ version: version.version, removableAt: now + options.graceMs });
      continue;
    }
    if (now - note.since < options.graceMs) {
      result.waiting.push({ version: version.version, removableAt: note.since + options.graceMs });
      continue;
    }
    removable.push(version);
  }
  if (removable.length === 0) return result;

  // Every name a kept version lists or a page references stays, whichever version it came with.
  const removing = new Set(removable.map((v) => v.version));
  const kept = new Set(directlyReferenced);
  for (const version of versions) if (!removing.has(version.version)) for (const file of version.files) kept.add(file);

  // A builder may have published or re-announced a version since the markers were read: look again.
  const newest = newestVersions(await readVersions(storage));
  for (const version of removable) {
    if (newest.has(version.version)) continue;
    try {
      const removed = await removeVersion(storage, version, kept);
      result.removed.push({ version: version.version, ...removed });
      log.info({ version: version.version, files: removed.files, objects: removed.objects }, 'template asset version removed');
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      result.failed.push({ version: version.version, error: message });
      log.error({ err, version: version.version }, 'could not remove a template asset version; the next sweep goes on');
    }
  }
  return result;
}

/** Deletes the version's own files (each with its variants), then its note, then its marker. */
async function removeVersion(storage: Storage, version: TVersion, kept: ReadonlySet<string>): Promise<{ files: number; objects: number }> {
  let files = 0;
  let objects = 0;
  for (const file of [...version.files].sort()) {
    if (kept.has(file)) continue;
    // The variants before the file: the file is what a reader asks for first.
    for (const key of [...STORED_CODINGS.map((coding) => templateAssetVariantKey(file, coding)), templateAssetKey(file)]) {
      if (await storage.head(key)) {
        await storage.delete(key);
        objects++;
      }
    }
    files++;
  }
  await storage.delete(templateAssetsUnreferencedKey(version.version));
  await storage.delete(version.markerKey);
  return { files, objects };
}

async function readVersions(storage: Storage): Promise<TVersion[]> {
  const versions: TVersion[] = [];
  for await (const object of storage.list(TEMPLATE_ASSETS_MARKER_PREFIX)) {
    const version = templateAssetsMarkerVersion(object.key);
    if (version === null) continue;
    // A marker that cannot be read stops the sweep: its files are unknown, so nothing could be told shared.
    const manifest = ZPublishedManifest.parse(JSON.parse((await readObject(storage, object.key)).toString('utf8')));
    versions.push({ version, markerKey: templateAssetsMarkerKey(version), publishedAt: object.modifiedAt, files: new Set(manifest.files.map((f) => f.path)) });
  }
  return versions;
}

async function readNotes(storage: Storage): Promise<Map<string, { since: number } | null>> {
  const notes = new Map<string, { since: number } | null>();
  for await (const object of storage.list(TEMPLATE_ASSETS_UNREFERENCED_PREFIX)) {
    const version = templateAssetsUnreferencedVersion(object.key);
    if (version === null) continue;
    const parsed = ZUnreferencedNote.safeParse(safeJson(await readObject(storage, object.key).catch(() => Buffer.from(''))));
    // An unreadable note counts as none: it is written again, and the grace period starts over.
    notes.set(version, parsed.success ? parsed.data : null);
  }
  return notes;
}

/** The last published versions: every one whose marker has the latest time (a tie cannot tell which came last). */
function newestVersions(versions: readonly TVersion[]): Set<string> {
  const latest = Math.max(...versions.map((v) => v.publishedAt));
  return new Set(versions.filter((v) => v.publishedAt === latest).map((v) => v.version));
}

/** The newest published version (what builders publishing now use) and the ones the caller keeps. */
function currentVersions(versions: readonly TVersion[], keep: readonly string[]): Set<string> {
  return new Set([...keep, ...newestVersions(versions)]);
}

/** The versions a page with these /_astro/ names may load files of. */
function versionsReferredToBy(allNames: readonly string[], versions: readonly TVersion[], current: ReadonlySet<string>): string[] {
  // A name no published version lists is nothing the sweep could remove, and tells no version.
  const names = allNames.filter((name) => versions.some((v) => v.files.has(name)));
  if (names.length === 0) return [];
  const listingAll = versions.filter((v) => names.every((name) => v.files.has(name)));
  const currentListingAll = listingAll.filter((v) => current.has(v.version));
  if (currentListingAll.length > 0) return currentListingAll.map((v) => v.version);
  if (listingAll.length > 0) return listingAll.map((v) => v.version);
  return versions.filter((v) => names.some((name) => v.files.has(name))).map((v) => v.version);
}

/** The /_astro/ names each stored page references, reading only pages not seen (with these bytes) before. */
async function readPageReferences(storage: Storage, cache: TPageReferenceCache | undefined): Promise<string[][]> {
  const pages: string[][] = [];
  const seen = new Set<string>();
  for (const prefix of [SITES_PREFIX, PUBLIC_SITES_PREFIX]) {
    for await (const object of storage.list(prefix)) {
      const coding = storedPageCoding(object.key);
      if (coding === null) continue;
      seen.add(object.key);
      const stamp = pageStamp(object);
      const cached = cache?.get(object.key);
      if (cached && cached.stamp === stamp) {
        pages.push(cached.names);
        continue;
      }
      let bytes: Buffer;
      try {
        bytes = await readObject(storage, object.key);
      } catch (err) {
        if (err instanceof StorageNotFoundError) continue; // removed since it was listed: it refers to nothing now
        throw err;
      }
      const html = coding === 'br' ? await brotli(bytes) : coding === 'gzip' ? await gunzipAsync(bytes) : bytes;
      const names = assetNamesIn(html.toString('utf8'));
      cache?.set(object.key, { stamp, names });
      pages.push(names);
    }
  }
  if (cache) for (const key of cache.keys()) if (!seen.has(key)) cache.delete(key);
  return pages;
}

/** The /_astro/ names in a page, each once, sorted. */
export function assetNamesIn(html: string): string[] {
  return [...new Set(Array.from(html.matchAll(ASSET_REFERENCE), (match) => match[1]!))].sort();
}

function pageStamp(object: TObjectInfo): string {
  return `${object.size}:${object.modifiedAt}:${object.etag ?? ''}`;
}

async function readObject(storage: Storage, key: string): Promise<Buffer> {
  return buffer((await storage.get(key)).body);
}

function safeJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    return null;
  }
}

/**
 * The version of the template this process's builds use (the hash of its built bundles), or none when
 * the template is not built here (an API process that only serves): a sweep keeps it as current.
 * Read once per process, as the builder loads the template once: the hourly sweep does not hash the
 * bundles again.
 */
let localVersions: Promise<string[]> | null = null;
export function localTemplateVersions(): Promise<string[]> {
  localVersions ??= readLocalTemplateVersions().catch((err: unknown) => {
    localVersions = null; // tried again at the next sweep
    throw err;
  });
  return localVersions;
}

async function readLocalTemplateVersions(): Promise<string[]> {
  const { clientDir } = templatePaths();
  if (!existsSync(path.join(clientDir, '..', 'server'))) return [];
  return [(await readAssetManifest(clientDir)).hash];
}

type TSweeperDeps = TTemplateAssetSweepDeps & { config: Pick<TConfig, 'templateAssetsGraceMs'> };

/** One sweep with the API's settings, keeping the version this process builds with; logs what it removed. */
export async function sweepTemplateAssetsNow(deps: TSweeperDeps, pageCache?: TPageReferenceCache): Promise<TTemplateAssetSweepResult> {
  return sweepTemplateAssets(deps, { graceMs: deps.config.templateAssetsGraceMs, keepVersions: await localTemplateVersions(), ...(pageCache ? { pageCache } : {}) });
}

/** Runs the sweep every `intervalMs` in this process (pages read once are remembered between runs); stop() waits for a running sweep. */
export function startTemplateAssetSweeper(deps: TSweeperDeps, intervalMs: number = TEMPLATE_ASSET_SWEEP_INTERVAL_MS): TPeriodicTask {
  const pageCache = createPageReferenceCache();
  return runPeriodically(() => sweepTemplateAssetsNow(deps, pageCache), {
    everyMs: intervalMs,
    onError: (err) => deps.log.error({ err }, 'template asset sweep failed'),
  });
}
