/**
 * Seeds the demo sites: each sample project becomes a project at its template's demo path, with
 * its files stored through the ordinary storage and rows, built by the ordinary queue and builder.
 * Idempotent: a demo whose fingerprint (its manifest, the samples' generator version and the site
 * template's build) is recorded is left alone, unless `force`; otherwise its rows are brought to
 * the manifest (unchanged files keep their rows, and their favourites and approvals) and it is
 * rebuilt. A fingerprint is recorded once its build succeeded. Every built demo's card pictures
 * (previews.ts) are then brought to its link picture, current demos' too.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_SITE_SETTINGS, EMPTY_CONTACT_INFO, TEMPLATE_CATALOGUE, TEMPLATE_LOOKS, siteHtmlKey, themeOfLook, uploadKey } from '@dropsite/shared';
import { findDemoSite, listDemoSiteStates, rebuildSites, recordDemoFingerprint, saveDemoSite, type TAppDeps, type TDemoFileInput } from '@dropsite/control-api';
import type { TDemoManifest } from './manifest.ts';
import { DEMO_MANIFESTS } from './projects/index.ts';
import { writeDemoPreviews } from './previews.ts';
import { makeSamples, pruneSampleCache, SAMPLES_VERSION, sampleFilesOf } from './samples.ts';

const TEMPLATE_DIST = path.resolve(import.meta.dirname, '..', '..', '..', 'site-template', 'dist');

/** The hash of the site template's build (server and client): a new build of the template makes new demos. */
export async function siteTemplateVersion(distDir = TEMPLATE_DIST): Promise<string> {
  const hash = createHash('sha256');
  if (!existsSync(distDir)) return 'unbuilt';
  const entries = (await readdir(distDir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
  for (const file of entries.sort()) {
    hash.update(path.relative(distDir, file));
    hash.update(await readFile(file));
  }
  return hash.digest('hex');
}

/** The demo's slug: its template's demo path without the '/'. */
export function demoSlugOf(manifest: TDemoManifest): string {
  return TEMPLATE_CATALOGUE[manifest.template].demoPath.slice(1);
}

function fingerprintOf(manifest: TDemoManifest, templateVersion: string): string {
  return createHash('sha256')
    .update(JSON.stringify({ samples: SAMPLES_VERSION, manifest: { ...manifest, files: sampleFilesOf(manifest) }, templateVersion }))
    .digest('hex');
}

/** A row id like the server's: 128 random bits, base64url. */
const newRowId = () => randomBytes(16).toString('base64url');

export interface TSeedOptions {
  /** Rebuild every demo, current or not. */
  force?: boolean;
  /** Only these slugs (default: all eight). */
  slugs?: readonly string[];
  /** Progress lines for a person watching. */
  log?: (line: string) => void;
  /** Called as each demo is done with (current, built or failed): for a progress bar. */
  onProgress?: (done: number, total: number, slug: string) => void;
  /** The site template's build version (tests pass their own); read from site-template/dist otherwise. */
  templateVersion?: string;
}

export interface TSeedReport {
  /** Demos that were saved and rebuilt. */
  built: string[];
  /** Demos already current. */
  current: string[];
  /** Demos whose build failed. */
  failed: string[];
  /** Built demos whose card pictures could not be made (the gallery shows their names instead). */
  previewsFailed: string[];
}

/** Saves one demo and builds it; answers whether its build succeeded. Bytes stored for a save that fails are removed. */
async function seedOne(deps: TAppDeps, manifest: TDemoManifest, fingerprint: string, log: (line: string) => void): Promise<boolean> {
  const slug = demoSlugOf(manifest);
  log(`/${slug}: preparing ${sampleFilesOf(manifest).length} files…`);
  const samples = await makeSamples(manifest);
  const existing = await findDemoSite(deps.db, slug);
  const projectId = existing?.site.id ?? newRowId();
  const files: TDemoFileInput[] = [];
  const stored: string[] = [];
  let saved: Awaited<ReturnType<typeof saveDemoSite>>;
  try {
    for (const sample of samples) {
      // The same bytes under the same name keep their row; anything else is a new file.
      const kept = existing?.files.find((f) => f.name === sample.name && f.sha256 === sample.sha256 && !files.some((k) => k.id === f.id));
      if (kept) {
        files.push({ id: kept.id, name: sample.name, type: sample.type, size: kept.size, sha256: kept.sha256, storageKey: kept.storage_key, group: sample.group });
        continue;
      }
      const id = newRowId();
      const storageKey = uploadKey(projectId, id);
      await deps.storage.put(storageKey, sample.bytes, { contentType: sample.type });
      stored.push(storageKey);
      files.push({ id, name: sample.name, type: sample.type, size: sample.bytes.length, sha256: sample.sha256, storageKey, group: sample.group });
    }
    saved = await saveDemoSite(
      deps.db,
      {
        siteId: projectId,
        slug,
        title: manifest.title,
        description: manifest.description,
        subLine: manifest.description,
        tagLine: `By ${manifest.authorName}`,
        authorName: manifest.authorName,
        template: manifest.template,
        // The template's look is its demo's: a creator who picks the template gets what the demo shows.
        theme: themeOfLook(TEMPLATE_LOOKS[manifest.template]),
        colorMode: TEMPLATE_LOOKS[manifest.template].colorMode,
        heroLayout: TEMPLATE_LOOKS[manifest.template].heroLayout,
        visitorModeToggle: TEMPLATE_LOOKS[manifest.template].visitorModeToggle,
        settings: { ...DEFAULT_SITE_SETTINGS, ...manifest.settings },
        contactInfo: { ...EMPTY_CONTACT_INFO, ...manifest.contactInfo },
        files,
      },
      deps.clock.now(),
    );
  } catch (err) {
    for (const key of stored) await deps.storage.delete(key);
    throw err;
  }
  for (const key of saved.removedStorageKeys) await deps.storage.delete(key);
  log(`/${slug}: ${existing ? (saved.changed ? 'updated' : 'unchanged, rebuilding') : 'created'}; building…`);

  // Built one at a time, as soon as each is saved: each demo's result is its own (a failed rebuild
  // of a live site leaves its old page up), and the first demos are online while the next are made.
  const started = performance.now();
  const result = await rebuildSites(deps, [projectId], () => {}, 200);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (result.failed > 0 || (await deps.storage.head(siteHtmlKey(slug))) === null) {
    log(`/${slug}: build FAILED`);
    return false;
  }
  await recordDemoFingerprint(deps.db, slug, fingerprint, deps.clock.now());
  log(`/${slug}: built in ${seconds} s`);
  return true;
}

/** A demo's card pictures; without them the gallery shows the template's name, so a failure is reported, not fatal. */
async function bringPreviews(deps: TAppDeps, slug: string, log: (line: string) => void): Promise<boolean> {
  try {
    const outcome = await writeDemoPreviews(deps.storage, slug);
    if (outcome === 'made') log(`/${slug}: card pictures made`);
    if (outcome !== 'no-link-picture') return true;
    log(`/${slug}: card pictures FAILED: the demo has no link picture`);
  } catch (err) {
    log(`/${slug}: card pictures FAILED: ${err instanceof Error ? err.message : String(err)}`);
  }
  return false;
}

/** Brings the demo sites to their manifests (see the module comment). */
export async function seedDemoSites(deps: TAppDeps, options: TSeedOptions = {}): Promise<TSeedReport> {
  const log = options.log ?? (() => {});
  const templateVersion = options.templateVersion ?? (await siteTemplateVersion());
  const manifests = DEMO_MANIFESTS.filter((m) => !options.slugs || options.slugs.includes(demoSlugOf(m)));
  const states = new Map((await listDemoSiteStates(deps.db)).map((s) => [s.slug, s]));
  const report: TSeedReport = { built: [], current: [], failed: [], previewsFailed: [] };

  for (const [index, manifest] of manifests.entries()) {
    const slug = demoSlugOf(manifest);
    const fingerprint = fingerprintOf(manifest, templateVersion);
    options.onProgress?.(index, manifests.length, slug);
    const state = states.get(slug);
    if (!options.force && state && state.fingerprint === fingerprint && state.status === 'live' && !state.gone) {
      report.current.push(slug);
      if (!(await bringPreviews(deps, slug, log))) report.previewsFailed.push(slug);
      continue;
    }
    // One demo failing (or seeded by another process at the same moment) does not stop the others.
    try {
      if (await seedOne(deps, manifest, fingerprint, log)) {
        report.built.push(slug);
        if (!(await bringPreviews(deps, slug, log))) report.previewsFailed.push(slug);
      } else report.failed.push(slug);
    } catch (err) {
      log(`/${slug}: FAILED: ${err instanceof Error ? err.message : String(err)}`);
      report.failed.push(slug);
    }
  }
  options.onProgress?.(manifests.length, manifests.length, '');
  if (report.built.length > 0 && !options.slugs) {
    const pruned = await pruneSampleCache(DEMO_MANIFESTS);
    if (pruned > 0) log(`Removed ${pruned} cached sample file${pruned === 1 ? '' : 's'} no demo uses any more`);
  }
  return report;
}
