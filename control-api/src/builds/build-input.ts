/**
 * What a build is given: a project's rows mapped to the builder's input. The projects repository
 * answers rows; the build area decides what of them the builder sees.
 */
import type { Kysely } from 'kysely';
import type { TBuildFile, TBuildInput, TBuildProject } from '@dropsite/builder';
import { storedSiteLook, themeOfLook } from '@dropsite/shared';
import type { Database, TFileRow, TProjectRow } from '../db/tables.ts';
import { findProjectById, listFilesByProject, parseContactInfo, parseDerivedMetadata, parseSiteSettings, parseTemplateId } from '../site-records/site-records.repository.ts';

/** Everything the builder needs for a project, or null when it is missing or deleted. */
export async function loadBuildInput(db: Kysely<Database>, projectId: string): Promise<TBuildInput | null> {
  const project = await findProjectById(db, projectId);
  return project === null ? null : buildInputOf(db, project);
}

/** The builder's input for a project row the caller has just read. */
export async function buildInputOf(db: Kysely<Database>, project: TProjectRow): Promise<TBuildInput> {
  const files = await listFilesByProject(db, project.id);
  return { project: toBuildProject(project), files: files.map(toBuildFile) };
}

function toBuildProject(row: TProjectRow): TBuildProject {
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
