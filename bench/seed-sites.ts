/**
 * Seeding shared by the rebuild benchmarks (bench/rebuild.ts, bench/rebuild-distributed.ts):
 * realistic projects whose rows reuse the stored files of one reference project, built once
 * through the real pipeline so the images have derived copies in the same storage.
 * Works on any runtime's deps: SQLite and disk, or PostgreSQL and S3 with the builders elsewhere.
 */
import { createHash, randomBytes } from 'node:crypto';
import { renderOgImage, type TBuildFile } from '@dropsite/builder';
import { enqueueSiteBuild, type TAppDeps } from '@dropsite/control-api';
import {
  DEFAULT_SITE_SETTINGS,
  FILE_KINDS,
  TEMPLATE_IDS,
  derivedKeys,
  detectFileKind,
  generateSlug,
  isValidSlug,
  siteOgImageKey,
  siteOgImageMarkerKey,
  uploadKey,
  type TDerivedMetadata,
  type TFileKind,
} from '@dropsite/shared';
// Seeding goes straight to the repository, which control-api's public API does not expose.
import { insertFiles, insertSite, listFilesBySite, loadBuildInput, type TFileRow, type TNewFile, type TNewSite } from '@dropsite/control-api/internals';
// What the builder hashes to decide whether a site's link picture must be drawn again.
import { ogImageInput, ogImageInputHash, putOgImageMarker } from '@dropsite/builder';
import { makeCameraJpeg, makePdf, makeZip, readAll } from './lib.ts';

type TDb = TAppDeps['db'];

export interface TRefFile {
  name: string;
  type: string;
  bytes: Buffer;
}

/** A stored reference file as the seeded rows reuse it (storage key, hash, size, derived metadata as stored). */
export interface TStoredRef extends Pick<TBuildFile, 'name' | 'type' | 'size' | 'storageKey' | 'sha256' | 'kind'> {
  metadata: string;
}

export interface TReference {
  projectId: string;
  slug: string;
  images: TStoredRef[];
  others: TStoredRef[];
  /** Build time of the reference project (upload, queue, derivation), ms. */
  ms: number;
  /** Rows found without metadata after a retried build, whose metadata came from the derived cache. */
  metadataFromCache: number;
}

export interface TSeededSite {
  id: string;
  slug: string;
  title: string;
  files: number;
}

export interface TSeedResult {
  sites: TSeededSite[];
  fileCount: number;
  kindCounts: Partial<Record<TFileKind, number>>;
  ms: number;
  transactions: number;
}

/** Six camera-like photos, a PDF, a ZIP, a CSV and notes: the reference project's files. */
export async function makeReferenceFiles(): Promise<TRefFile[]> {
  const sizes: Array<[number, number]> = [
    [1600, 1200],
    [1600, 1200],
    [1200, 1600],
    [1600, 1200],
    [1200, 1600],
    [1600, 1200],
  ];
  const photos = await Promise.all(sizes.map(([w, h], i) => makeCameraJpeg(i + 11, w, h)));
  const csvRows = [
    'date,item,quantity,price',
    ...Array.from({ length: 200 }, (_, i) => `2025-03-${String((i % 28) + 1).padStart(2, '0')},item-${i},${(i % 9) + 1},${(i * 3.17).toFixed(2)}`),
  ];
  return [
    ...photos.map((bytes, i) => ({ name: `DSC_${String(i + 1).padStart(4, '0')}.jpg`, type: 'image/jpeg', bytes })),
    { name: 'contract.pdf', type: 'application/pdf', bytes: makePdf(4) },
    {
      name: 'originals.zip',
      type: 'application/zip',
      bytes: makeZip([
        { name: 'README.txt', data: 'Original files of the delivery.\n'.repeat(20) },
        { name: 'raw/notes.md', data: '# Notes\n\nShot list and settings.\n'.repeat(40) },
        { name: 'raw/sidecar.xmp', data: randomBytes(4096) },
      ]),
    },
    { name: 'invoice-lines.csv', type: 'text/csv', bytes: Buffer.from(`${csvRows.join('\n')}\n`) },
    { name: 'brief.md', type: 'text/markdown', bytes: Buffer.from('# Brief\n\nWhat was shot, where and when.\n'.repeat(30)) },
  ];
}

const WORDS = {
  adjective: ['Spring', 'Autumn', 'Quiet', 'Golden', 'Northern', 'Urban', 'Coastal', 'Late', 'Early', 'Final', 'Studio', 'Open'],
  noun: ['Wedding', 'Campaign', 'Portraits', 'Lookbook', 'Launch', 'Workshop', 'Delivery', 'Exhibition', 'Brochure', 'Retreat', 'Shoot', 'Proofs'],
  first: ['Ann', 'Ben', 'Chloe', 'David', 'Elena', 'Farid', 'Greta', 'Hiro', 'Ines', 'Jonas', 'Kemi', 'Liam'],
  last: ['Example', 'Fischer', 'Moreau', 'Okafor', 'Rossi', 'Nakamura', 'Silva', 'Novak', 'Larsen', 'Haddad'],
};

function pick<T>(list: readonly T[], n: number): T {
  return list[n % list.length]!;
}

function newRowId(): string {
  return randomBytes(16).toString('base64url');
}

function allocateSlugs(count: number): string[] {
  const slugs = new Set<string>();
  while (slugs.size < count) {
    const slug = generateSlug((n) => randomBytes(n));
    if (isValidSlug(slug)) slugs.add(slug);
  }
  return [...slugs];
}

function projectRow(id: string, slug: string, n: number, createdAt: number, status: TNewSite['status']): TNewSite {
  const author = n % 5 === 4 ? '' : `${pick(WORDS.first, n)} ${pick(WORDS.last, n * 7 + 3)}`;
  const title = `${pick(WORDS.adjective, n)} ${pick(WORDS.noun, n * 5 + 1)} ${1000 + n}`;
  const description =
    n % 6 === 5
      ? ''
      : `Final selects from the ${pick(WORDS.noun, n * 5 + 1).toLowerCase()}, with the signed contract and the originals. Take your time, and tell me which ones you would like retouched.`;
  const email = author ? `${author.split(' ')[0]!.toLowerCase()}@example.com` : '';
  return {
    id,
    slug,
    title,
    description,
    sub_line: description,
    tag_line: author ? `By ${author}` : '',
    author_name: author,
    template: n % 4 === 0 ? pick(TEMPLATE_IDS, n) : 'universal',
    theme: n % 3 === 0 ? 'professional-dark' : 'professional-light',
    settings: JSON.stringify({ ...DEFAULT_SITE_SETTINGS, enableFavorites: n % 2 === 0, notificationEmail: email }),
    contact_info: JSON.stringify({ email, website: n % 4 === 1 ? 'https://example.com' : '', twitter: '', linkedin: '', github: '' }),
    password_hash: null,
    password_version: 1,
    expires_at: null,
    owner_creator_id: null,
    anonymous_session_id: null,
    status,
    version: 1,
    created_at: createdAt,
    updated_at: createdAt,
    deleted_at: null,
  };
}

/** 3 to 8 files: one to six photos, usually a PDF, sometimes a zip, a CSV or notes. */
function fileRows(projectId: string, n: number, refs: { images: TStoredRef[]; others: TStoredRef[] }, createdAt: number): TNewFile[] {
  const count = 3 + ((n * 7 + 3) % 6);
  const [pdf, zip, csv, md] = refs.others as [TStoredRef, TStoredRef, TStoredRef, TStoredRef];
  const others: TStoredRef[] = [];
  if (n % 5 !== 4) others.push(pdf);
  if (n % 3 === 0) others.push(zip);
  if (n % 7 === 2) others.push(csv);
  if (n % 11 === 5) others.push(md);
  const chosen: Array<{ ref: TStoredRef; name: string }> = [];
  const imageCount = Math.max(1, count - others.length);
  for (let i = 0; i < imageCount; i++) {
    chosen.push({ ref: pick(refs.images, n + i), name: `IMG_${String(((n * 13 + i) % 9000) + 1000)}.jpg` });
  }
  for (const ref of others.slice(0, count - imageCount)) chosen.push({ ref, name: ref.name.replace('.', `-${1000 + n}.`) });
  return chosen.map(({ ref, name }, position) => ({
    id: newRowId(),
    project_id: projectId,
    name,
    type: ref.type,
    size: ref.size,
    storage_key: ref.storageKey,
    sha256: ref.sha256,
    kind: ref.kind,
    metadata: ref.metadata,
    position,
    created_at: createdAt,
  }));
}

/** Builds of one version by status, from the rows. */
export async function buildStatusCounts(db: TDb, version: number): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('builds')
    .select((eb) => ['status', eb.fn.countAll<number>().as('count')])
    .where('version', '=', version)
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.count)]));
}

/**
 * One project through the real pipeline: bytes in storage, rows, a queued build (run by whichever
 * builder consumes the queue: this process's or separate ones), derivation into the same storage.
 */
export async function buildReferenceProject(deps: TAppDeps, refFiles: TRefFile[]): Promise<TReference> {
  const started = performance.now();
  const projectId = newRowId();
  const now = Date.now();
  const rows: TNewFile[] = [];
  for (const [position, file] of refFiles.entries()) {
    const fileId = newRowId();
    const storageKey = uploadKey(projectId, fileId);
    await deps.storage.put(storageKey, file.bytes, { contentType: 'application/octet-stream' });
    rows.push({
      id: fileId,
      project_id: projectId,
      name: file.name,
      type: file.type,
      size: file.bytes.length,
      storage_key: storageKey,
      sha256: createHash('sha256').update(file.bytes).digest('hex'),
      kind: detectFileKind(file.name, file.type),
      metadata: '{}',
      position,
      created_at: now,
    });
  }
  const [slug] = allocateSlugs(1) as [string];
  await deps.db.transaction().execute(async (trx) => {
    await insertSite(trx, projectRow(projectId, slug, 0, now, 'building'));
    await insertFiles(trx, rows);
  });
  const buildId = await enqueueSiteBuild(deps, projectId, 1);
  await deps.queue.whenIdle();
  const build = await deps.db.selectFrom('builds').selectAll().where('id', '=', buildId).executeTakeFirstOrThrow();
  if (build.status !== 'succeeded') throw new Error(`the reference build ${build.status}: ${build.error ?? '(no error recorded)'}`);
  const ms = performance.now() - started;
  const built = await listFilesBySite(deps.db, projectId);
  let metadataFromCache = 0;
  const toRef = async (row: TFileRow): Promise<TStoredRef> => {
    let metadata = row.metadata;
    // A build whose first attempt failed after deriving finds everything cached on its retry and
    // then leaves the rows at '{}': take the content-hash cache entry the builder wrote instead.
    if (metadata === '{}') {
      const key = derivedKeys(row.sha256).meta;
      if (await deps.storage.head(key)) {
        metadata = (await readAll((await deps.storage.get(key)).body)).toString('utf8');
        metadataFromCache++;
      }
    }
    return { name: row.name, type: row.type, size: row.size, storageKey: row.storage_key, sha256: row.sha256, kind: row.kind, metadata };
  };
  const images = await Promise.all(built.filter((r) => r.kind === 'image').map(toRef));
  const others = await Promise.all(built.filter((r) => r.kind !== 'image').map(toRef));
  for (const image of images) {
    const meta = JSON.parse(image.metadata) as Partial<TDerivedMetadata>;
    if (!meta.thumbnail || !meta.display) throw new Error(`reference build derived nothing for ${image.name}: ${image.metadata}`);
    if (!(await deps.storage.head(meta.thumbnail.key)) || !(await deps.storage.head(meta.display.key))) {
      throw new Error(`derived copies of ${image.name} are missing from storage`);
    }
  }
  if (images.length !== 6 || others.length !== 4) throw new Error('reference project has unexpected files');
  return { projectId, slug, images, others, ms, metadataFromCache };
}

/**
 * `count` projects reusing the reference's stored files, `batch` projects per transaction with one
 * multi-row insert for their projects and one for their files.
 */
export async function seedProjects(db: TDb, count: number, ref: TReference, batch = 100): Promise<TSeedResult> {
  const started = performance.now();
  const slugs = allocateSlugs(count + 1)
    .filter((s) => s !== ref.slug)
    .slice(0, count);
  const now = Date.now();
  const yearAgo = now - 365 * 24 * 3600 * 1000;
  const sites: TSeededSite[] = [];
  let fileCount = 0;
  let transactions = 0;
  const kindCounts: Partial<Record<TFileKind, number>> = {};
  for (let start = 0; start < count; start += batch) {
    const projects: TNewSite[] = [];
    const files: TNewFile[] = [];
    for (let n = start; n < Math.min(count, start + batch); n++) {
      const id = newRowId();
      const createdAt = yearAgo + Math.floor((n / count) * 360 * 24 * 3600 * 1000);
      const project = projectRow(id, slugs[n]!, n + 1, createdAt, 'live');
      const rows = fileRows(id, n + 1, ref, createdAt);
      projects.push(project);
      files.push(...rows);
      sites.push({ id, slug: project.slug, title: project.title, files: rows.length });
      fileCount += rows.length;
      for (const f of rows) kindCounts[f.kind as TFileKind] = (kindCounts[f.kind as TFileKind] ?? 0) + 1;
    }
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('projects').values(projects).execute();
      await insertFiles(trx, files);
    });
    transactions++;
  }
  return { sites, fileCount, kindCounts, ms: performance.now() - started, transactions };
}

/** What the builder would derive for each file, answered from the rows (as the cache does on a rebuild). */
export function derivedFromRows(files: TBuildFile[]): Record<string, TDerivedMetadata> {
  const derived: Record<string, TDerivedMetadata> = {};
  for (const file of files) {
    const kind = (FILE_KINDS as readonly string[]).includes(file.kind) ? (file.kind as TFileKind) : detectFileKind(file.name, file.type);
    derived[file.id] = file.metadata ? { ...file.metadata, kind } : { sha256: file.sha256, kind };
  }
  return derived;
}

/** Runs `work` over `items`, `concurrency` at a time. */
async function eachLimited<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, lane));
}

/**
 * Every seeded site's link picture as if drawn already: a site's first build draws it (~130 ms
 * each, builder/src/og-image-cache.ts) and later builds find the marker holding the hash of the
 * same input and draw nothing. Each site gets the marker of its own input (what its build will
 * hash), so preparing 10,000 sites costs one small write each instead of 10,000 drawings. The
 * picture itself is stored for the first site only: no build reads it, and a bench serves no visitor.
 */
export async function seedLinkPictures(deps: Pick<TAppDeps, 'db' | 'storage'>, sites: readonly TSeededSite[], concurrency = 32): Promise<{ ms: number; pngBytes: number }> {
  const started = performance.now();
  const inputOf = async (site: TSeededSite) => {
    const input = await loadBuildInput(deps.db, site.id);
    if (!input) throw new Error(`project ${site.id} vanished`);
    return ogImageInput(input.site, input.files, derivedFromRows(input.files));
  };
  if (sites.length === 0) return { ms: 0, pngBytes: 0 };
  // Drawn once for real (the seeded hash must be of an input the builder can draw).
  const png = await renderOgImage(deps.storage, await inputOf(sites[0]!));
  await deps.storage.put(siteOgImageKey(sites[0]!.slug), png, { contentType: 'image/png', cacheControl: 'public, max-age=3600' });
  await eachLimited(sites, concurrency, async (site) => {
    const og = await inputOf(site);
    await putOgImageMarker(deps.storage, site.slug, ogImageInputHash(og));
  });
  return { ms: performance.now() - started, pngBytes: png.length };
}

/**
 * How many of a sample of sites had their link picture drawn again since `since` (epoch ms):
 * 0 when the seeded markers matched what the builder hashes.
 */
export async function countLinkPicturesRedrawn(
  deps: Pick<TAppDeps, 'storage'>,
  sites: readonly TSeededSite[],
  since: number,
  sample = 50,
): Promise<{ redrawn: number; checked: number }> {
  const step = Math.max(1, Math.floor(sites.length / sample));
  const picked = sites.filter((_, i) => i % step === 0).slice(0, sample);
  let redrawn = 0;
  await eachLimited(picked, 16, async (site) => {
    const head = await deps.storage.head(siteOgImageMarkerKey(site.slug));
    // S3 answers whole seconds: a marker from the seeding (seconds before) never reaches `since`.
    if (!head || head.modifiedAt >= since) redrawn++;
  });
  return { redrawn, checked: picked.length };
}
