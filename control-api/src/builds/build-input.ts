/**
 * What a build is given: a site's rows mapped to the builder's input. The sites repository
 * answers rows; the build area decides what of them the builder sees.
 */
import type { Kysely } from 'kysely';
import type { TBuildFile, TBuildInput, TBuildSite } from '@dropsite/builder';
import { storedSiteLook, themeOfLook } from '@dropsite/shared';
import type { Database, TFileRow, TSiteRow } from '../db/tables.ts';
import { findSiteById, listFilesBySite, parseContactInfo, parseDerivedMetadata, parseSiteSettings, parseTemplateId } from '../site-records/site-records.repository.ts';

/** Everything the builder needs for a site, or null when it is missing or deleted. */
export async function loadBuildInput(db: Kysely<Database>, siteId: string): Promise<TBuildInput | null> {
  const site = await findSiteById(db, siteId);
  return site === null ? null : buildInputOf(db, site);
}

/** The builder's input for a site row the caller has just read. */
export async function buildInputOf(db: Kysely<Database>, site: TSiteRow): Promise<TBuildInput> {
  const files = await listFilesBySite(db, site.id);
  return { site: toBuildSite(site), files: files.map(toBuildFile) };
}

function toBuildSite(row: TSiteRow): TBuildSite {
  const look = storedSiteLook(row);
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    description: row.description,
    subLine: row.sub_line,
    tagLine: row.tag_line,
    authorName: row.author_name,
    template: parseTemplateId(row.template),
    theme: themeOfLook(look),
    colorMode: look.colorMode,
    visitorModeToggle: look.visitorModeToggle,
    heroLayout: look.heroLayout,
    settings: parseSiteSettings(row.settings),
    contactInfo: parseContactInfo(row.contact_info),
    createdAt: row.created_at,
    ...(row.expires_at !== null ? { expiresAt: row.expires_at } : {}),
    version: row.version,
  };
}

function toBuildFile(row: TFileRow): TBuildFile {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    size: row.size,
    storageKey: row.storage_key,
    sha256: row.sha256,
    kind: row.kind,
    metadata: parseDerivedMetadata(row.metadata),
    // A replaced file's URLs name its version (absent for the first one).
    ...(row.version > 1 ? { version: row.version } : {}),
    createdAt: row.created_at,
    group: row.group_name,
  };
}
