/**
 * Sites as an operator looks them up (`npm run sites`): the newest first with their owner, state,
 * files and bytes, or one site in detail. Every state is included (deleted and taken-down sites
 * too); a password is only ever reported as set or not.
 */
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Database, TSiteRow } from '../db/tables.ts';
import { countTraffic } from '../analytics/analytics.repository.ts';
import { DEMO_SITE_SLUGS } from '../site-records/demo-site-records.ts';
import { siteStateAt, type TSiteState } from './site-state.ts';

type TDb = Kysely<Database>;

/** Who a site belongs to: an account (with its email), an anonymous creator, a demo site of the catalogue, or no one. */
export type TSiteOwner = { kind: 'account'; creatorId: string; email: string | null } | { kind: 'anonymous'; sessionId: string } | { kind: 'demo' } | { kind: 'none' };

export interface TSiteListing {
  id: string;
  slug: string;
  title: string;
  owner: TSiteOwner;
  state: TSiteState;
  files: number;
  /** Bytes of the originals. */
  bytes: number;
  createdAt: number;
}

export interface TSiteFileListing {
  name: string;
  type: string;
  kind: string;
  size: number;
  /** 1 for the bytes first published, more after each replacement. */
  version: number;
}

export interface TSiteDetail extends TSiteListing {
  template: string;
  theme: string;
  updatedAt: number;
  expiresAt: number | null;
  deletedAt: number | null;
  takenDownAt: number | null;
  takedownReason: string | null;
  hasPassword: boolean;
  fileList: TSiteFileListing[];
  /** Page views and downloads (every file's and the ZIP of all), all time, from the rollups. */
  views: number;
  downloads: number;
  favorites: number;
  comments: number;
}

export interface TListSitesOptions {
  now: number;
  /** Most sites to answer. */
  limit: number;
  /** Only the sites of this account: its email (any case) or its creator id. */
  owner?: string | undefined;
}

const fileCountOf = (eb: ExpressionBuilder<Database, 'projects'>) =>
  eb
    .selectFrom('files')
    .select((f) => f.fn.countAll<number>().as('n'))
    .whereRef('files.project_id', '=', 'projects.id');

const fileBytesOf = (eb: ExpressionBuilder<Database, 'projects'>) =>
  eb
    .selectFrom('files')
    .select((f) => f.fn.coalesce(f.fn.sum<number | null>('files.size'), f.lit(0)).as('b'))
    .whereRef('files.project_id', '=', 'projects.id');

function selectListings(db: TDb, now: number) {
  return db
    .selectFrom('projects')
    .leftJoin('creators', 'creators.id', 'projects.owner_creator_id')
    .select((eb) => [
      'projects.id',
      'projects.slug',
      'projects.title',
      'projects.created_at',
      'projects.owner_creator_id',
      'projects.anonymous_session_id',
      'creators.email as owner_email',
      siteStateAt(eb, now).as('state'),
      fileCountOf(eb).as('file_count'),
      fileBytesOf(eb).as('file_bytes'),
    ]);
}

type TListingRow = Pick<TSiteRow, 'id' | 'slug' | 'title' | 'created_at' | 'owner_creator_id' | 'anonymous_session_id'> & {
  owner_email: string | null;
  state: TSiteState;
  file_count: number | null;
  file_bytes: number | null;
};

function ownerOf(row: Pick<TListingRow, 'slug' | 'owner_creator_id' | 'anonymous_session_id' | 'owner_email'>): TSiteOwner {
  if (row.owner_creator_id !== null) return { kind: 'account', creatorId: row.owner_creator_id, email: row.owner_email };
  if (row.anonymous_session_id !== null) return { kind: 'anonymous', sessionId: row.anonymous_session_id };
  return DEMO_SITE_SLUGS.has(row.slug) ? { kind: 'demo' } : { kind: 'none' };
}

function listingOf(row: TListingRow): TSiteListing {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    owner: ownerOf(row),
    state: row.state,
    files: Number(row.file_count ?? 0),
    bytes: Number(row.file_bytes ?? 0),
    createdAt: Number(row.created_at),
  };
}

/** The newest sites first (every state), at most `limit`, optionally only one account's. */
export async function listSites(db: TDb, options: TListSitesOptions): Promise<TSiteListing[]> {
  let query = selectListings(db, options.now);
  const owner = options.owner?.trim();
  if (owner) {
    query = owner.includes('@') ? query.where('creators.email', '=', owner.toLowerCase()) : query.where('projects.owner_creator_id', '=', owner);
  }
  const rows = await query.orderBy('projects.created_at', 'desc').orderBy('projects.id', 'desc').limit(options.limit).execute();
  return rows.map(listingOf);
}

/** One site by its slug, whatever its state, with its files and engagement counts; null when no site has the slug. */
export async function findSiteDetail(db: TDb, slug: string, now: number): Promise<TSiteDetail | null> {
  const row = await selectListings(db, now)
    .select([
      'projects.template',
      'projects.theme',
      'projects.updated_at',
      'projects.expires_at',
      'projects.deleted_at',
      'projects.taken_down_at',
      'projects.takedown_reason',
      'projects.password_hash',
    ])
    .where('projects.slug', '=', slug)
    .executeTakeFirst();
  if (!row) return null;
  const [files, traffic, favorites, comments] = await Promise.all([
    db.selectFrom('files').select(['name', 'type', 'kind', 'size', 'version']).where('project_id', '=', row.id).orderBy('position').orderBy('id').execute(),
    countTraffic(db, { siteId: row.id }),
    db
      .selectFrom('favorites')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('project_id', '=', row.id)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('comments')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('project_id', '=', row.id)
      .executeTakeFirstOrThrow(),
  ]);
  return {
    ...listingOf(row),
    template: row.template,
    theme: row.theme,
    updatedAt: Number(row.updated_at),
    expiresAt: row.expires_at === null ? null : Number(row.expires_at),
    deletedAt: row.deleted_at === null ? null : Number(row.deleted_at),
    takenDownAt: row.taken_down_at === null ? null : Number(row.taken_down_at),
    takedownReason: row.takedown_reason,
    hasPassword: row.password_hash !== null,
    fileList: files.map((f) => ({ name: f.name, type: f.type, kind: f.kind, size: Number(f.size), version: Number(f.version) })),
    views: traffic.views,
    downloads: traffic.downloads,
    favorites: Number(favorites.n),
    comments: Number(comments.n),
  };
}
