/**
 * Renders a draft site (files chosen, not uploaded) through the same built template a published
 * site uses. File URLs become placeholders the wizard swaps for object URLs of the local files.
 */
import { buildRenderModel, loadSiteRenderer, type TBuildFile, type TBuildSite } from '@dropsite/builder';
import {
  DEFAULT_SITE_SETTINGS,
  THUMBNAIL_SIZE,
  detectFileKind,
  previewFileUrl,
  resolveSiteLook,
  templateLook,
  themeOfLook,
  sanitizeFileName,
  type TDerivedMetadata,
  type TSiteFile,
  type TPreviewDraft,
  type TSiteRenderModel,
} from '@dropsite/shared';

/** Stands in for the site id and slug, which a draft does not have yet. */
export const PREVIEW_SITE_ID = 'preview';
const NO_HASH = '0'.repeat(64);

/** The render model of a draft: what the builder would make of it, with placeholder file URLs. */
export function buildPreviewModel(draft: TPreviewDraft, now: number, siteOrigin: string): TSiteRenderModel {
  const settings = { ...DEFAULT_SITE_SETTINGS, ...draft.settings };
  // The look the creator chose in the wizard; what they left out is the template's, as at publishing.
  const look = resolveSiteLook(templateLook(draft.template), draft);
  const site: TBuildSite = {
    id: PREVIEW_SITE_ID,
    slug: PREVIEW_SITE_ID,
    title: draft.title,
    description: draft.description,
    subLine: draft.description,
    tagLine: draft.authorName ? `By ${draft.authorName}` : '',
    authorName: draft.authorName,
    template: draft.template,
    theme: themeOfLook(look),
    colorMode: look.colorMode,
    visitorModeToggle: look.visitorModeToggle,
    heroLayout: look.heroLayout,
    settings,
    contactInfo: draft.contactInfo,
    createdAt: now,
    version: 1,
  };
  const files: TBuildFile[] = draft.files.map((f) => {
    const name = sanitizeFileName(f.name);
    return {
      id: f.clientId,
      name,
      type: f.type,
      size: f.size,
      storageKey: '',
      sha256: NO_HASH,
      kind: detectFileKind(name, f.type),
      metadata: null,
      createdAt: now,
      group: f.group ?? null,
    };
  });
  const derived: Record<string, TDerivedMetadata> = {};
  for (const [i, f] of draft.files.entries()) {
    const file = files[i]!;
    if (file.kind !== 'image' || !f.width || !f.height) continue;
    // The browser shows the original as its own thumbnail; these sizes keep the layout from jumping.
    const scale = Math.min(1, THUMBNAIL_SIZE / f.width);
    derived[file.id] = {
      sha256: NO_HASH,
      kind: 'image',
      width: f.width,
      height: f.height,
      thumbnail: { key: '', width: Math.max(1, Math.round(f.width * scale)), height: Math.max(1, Math.round(f.height * scale)), contentType: f.type },
    };
  }
  const model = buildRenderModel(site, files, derived, siteOrigin);
  return { ...model, files: model.files.map(pointAtPlaceholder) };
}

/** Every URL of the file that the API would serve becomes the file's placeholder. */
function pointAtPlaceholder(file: TSiteFile): TSiteFile {
  const apiPrefix = `/api/files/${encodeURIComponent(file.id)}`;
  const placeholder = previewFileUrl(file.id);
  const rewrite = (value: unknown): unknown => {
    if (typeof value === 'string') return value.startsWith(apiPrefix) ? placeholder : value;
    if (Array.isArray(value)) return value.map(rewrite);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewrite(v)]));
    return value;
  };
  return rewrite(file) as TSiteFile;
}

/** Renders the draft to a whole HTML document. */
export async function renderPreview(draft: TPreviewDraft, now: number, siteOrigin: string, serverEntry?: string): Promise<string> {
  const renderer = await loadSiteRenderer(serverEntry ? { serverEntry } : {});
  return renderer.render(buildPreviewModel(draft, now, siteOrigin));
}
