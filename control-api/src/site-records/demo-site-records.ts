/**
 * The demo sites: one per template of the catalogue, at its demo path (a reserved slug no creator
 * can take). Each is an ordinary site built by the ordinary builder, owned by no creator and
 * no anonymous session, so no dashboard lists it and no one can claim, edit or delete it.
 * `npm run seed-demo` (scripts/src/seed-demo.ts) stores their sample files and saves them here.
 */
import type { Kysely } from 'kysely';
import type { TBuildSite } from '@dropsite/builder';
import { TEMPLATE_CATALOGUE, TEMPLATE_IDS, isValidSlug, type TColorMode } from '@dropsite/shared';
import type { Database, TFileRow, TSiteRow } from '../db/tables.ts';
import { storedFileRow } from './stored-files.ts';

type TDb = Kysely<Database>;

/** The demo sites' slugs: each template's demo path without its '/'. */
export const DEMO_SITE_SLUGS: ReadonlySet<string> = new Set(TEMPLATE_IDS.map((id) => TEMPLATE_CATALOGUE[id].demoPath.slice(1)));

/** Whether a site may be served at `/{slug}`: a creator's slug, or one of the demo sites' reserved paths. */
export function isSiteSlug(slug: string): boolean {
  return isValidSlug(slug) || DEMO_SITE_SLUGS.has(slug);
}

export interface TDemoFileInput {
  /** The file row's id: an existing file's to keep it, a new one for new bytes. */
  id: string;
  name: string;
  type: string;
  size: number;
  sha256: string;
  storageKey: string;
  group: string | null;
}

/** A demo site as the builder will see it, with its look set in full. */
export interface TDemoSiteInput
  extends Pick<TBuildSite, 'slug' | 'title' | 'description' | 'subLine' | 'tagLine' | 'authorName' | 'template' | 'theme' | 'settings' | 'contactInfo'> {
  /** The existing site's id, or a new one. */
  siteId: string;
  heroLayout: string | null;
  colorMode: TColorMode;
  visitorModeToggle: boolean;
  /** In the order the site shows them. */
  files: readonly TDemoFileInput[];
}

export interface TDemoSaveResult {
  /** Whether anything the site shows changed (a new site counts): it needs a build. */
  changed: boolean;
  /** Storage keys of files no longer on the site (their rows are gone). */
  removedStorageKeys: string[];
}

/** A demo site's site (whatever its state: a deleted or taken-down demo is restored by the next seed) and its files. */
export async function findDemoSite(db: TDb, slug: string): Promise<{ site: TSiteRow; files: TFileRow[] } | null> {
  if (!DEMO_SITE_SLUGS.has(slug)) throw new Error(`Not a demo site: ${slug}`);
  const site = await db.selectFrom('projects').selectAll().where('slug', '=', slug).executeTakeFirst();
  if (!site) return null;
  const files = await db.selectFrom('files').selectAll().where('project_id', '=', site.id).orderBy('position').orderBy('id').execute();
  return { site, files };
}

/**
 * Creates or updates a demo site's site and file rows in one transaction, to exactly `input`:
 * ownerless, public, never expiring, not deleted. Files keep their rows (and so their engagement)
 * when their id is kept; rows of files left out are removed.
 */
export async function saveDemoSite(db: TDb, input: TDemoSiteInput, now: number): Promise<TDemoSaveResult> {
  if (!DEMO_SITE_SLUGS.has(input.slug)) throw new Error(`Not a demo site: ${input.slug}`);
  const fields = {
    title: input.title,
    description: input.description,
    sub_line: input.subLine,
    tag_line: input.tagLine,
    author_name: input.authorName,
    template: input.template,
    theme: input.theme,
    hero_layout: input.heroLayout,
    color_mode: input.colorMode,
    visitor_mode_toggle: input.visitorModeToggle ? 1 : 0,
    settings: JSON.stringify(input.settings),
    contact_info: JSON.stringify(input.contactInfo),
    password_hash: null,
    expires_at: null,
    owner_creator_id: null,
    anonymous_session_id: null,
    deleted_at: null,
    taken_down_at: null,
    takedown_reason: null,
  };
  const rows = input.files.map((file, position) =>
    storedFileRow(
      input.siteId,
      { fileId: file.id, storageKey: file.storageKey, size: file.size, sha256: file.sha256, originalName: file.name, clientType: file.type, group: file.group },
      position,
      now,
    ),
  );
  return db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom('projects').selectAll().where('slug', '=', input.slug).executeTakeFirst();
    if (!existing) {
      await trx
        .insertInto('projects')
        .values({ id: input.siteId, slug: input.slug, ...fields, password_version: 1, status: 'building', version: 1, created_at: now, updated_at: now })
        .execute();
      if (rows.length > 0) await trx.insertInto('files').values(rows).execute();
      return { changed: true, removedStorageKeys: [] };
    }
    if (existing.id !== input.siteId) throw new Error(`The demo site ${input.slug} is project ${existing.id}, not ${input.siteId}`);
    let changed = (Object.keys(fields) as Array<keyof typeof fields>).some((key) => existing[key] !== fields[key]);
    if (changed)
      await trx
        .updateTable('projects')
        .set({ ...fields, updated_at: now })
        .where('id', '=', existing.id)
        .execute();

    const current = await trx.selectFrom('files').selectAll().where('project_id', '=', existing.id).execute();
    const wanted = new Set(rows.map((row) => row.id));
    const removed = current.filter((file) => !wanted.has(file.id));
    if (removed.length > 0) {
      await trx
        .deleteFrom('files')
        .where(
          'id',
          'in',
          removed.map((file) => file.id),
        )
        .execute();
      changed = true;
    }
    const byId = new Map(current.map((file) => [file.id, file]));
    for (const row of rows) {
      const old = byId.get(row.id);
      if (!old) {
        await trx.insertInto('files').values(row).execute();
        changed = true;
      } else if (old.name !== row.name || old.type !== row.type || old.kind !== row.kind || old.position !== row.position || old.group_name !== row.group_name) {
        await trx
          .updateTable('files')
          .set({ name: row.name, type: row.type, kind: row.kind, position: row.position, group_name: row.group_name })
          .where('id', '=', row.id)
          .execute();
        changed = true;
      }
    }
    return { changed, removedStorageKeys: removed.map((file) => file.storage_key) };
  });
}

export interface TDemoSiteState {
  slug: string;
  /** Null when the demo has no site yet. */
  status: TSiteRow['status'] | null;
  /** Whether it is deleted or taken down. */
  gone: boolean;
  /** What it was last built from; null when never recorded. */
  fingerprint: string | null;
}

/** Each demo site's state and recorded fingerprint, in one read (the start-up check). */
export async function listDemoSiteStates(db: TDb): Promise<TDemoSiteState[]> {
  const slugs = [...DEMO_SITE_SLUGS];
  const sites = await db.selectFrom('projects').select(['slug', 'status', 'deleted_at']).where('slug', 'in', slugs).execute();
  const marks = await db.selectFrom('demo_sites').select(['slug', 'fingerprint']).where('slug', 'in', slugs).execute();
  return slugs.map((slug) => {
    const site = sites.find((p) => p.slug === slug);
    return { slug, status: site?.status ?? null, gone: site ? site.deleted_at !== null : false, fingerprint: marks.find((m) => m.slug === slug)?.fingerprint ?? null };
  });
}

/** Records what a demo site was built from, once its build succeeded. */
export async function recordDemoFingerprint(db: TDb, slug: string, fingerprint: string, now: number): Promise<void> {
  await db
    .insertInto('demo_sites')
    .values({ slug, fingerprint, built_at: now })
    .onConflict((oc) => oc.column('slug').doUpdateSet({ fingerprint, built_at: now }))
    .execute();
}
