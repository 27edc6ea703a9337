/**
 * What the viewer islands receive about the site (kept small: it is serialised into each island's
 * props, so it is public): ids the engagement calls need, names, and the visitor-facing switches.
 */
import { toPublicSiteSettings, type TPublicSiteSettings, type TSiteRenderModel } from '@dropsite/shared';

export interface TViewerSite {
  projectId: string;
  slug: string;
  title: string;
  authorName: string;
  /** Every file's size together: what 'Download All' expects to receive when the server cannot say. */
  totalBytes: number;
  settings: TPublicSiteSettings;
}

/** A file a viewer reads from its own address and offers to download. */
export interface TServedFile {
  id: string;
  name: string;
  size: number;
  url: string;
  downloadUrl: string;
}

/** What a viewer island receives of a served file (only these fields: island props are public). */
export function toServedFile({ id, name, size, url, downloadUrl }: TServedFile): TServedFile {
  return { id, name, size, url, downloadUrl };
}

export function toViewerSite(site: TSiteRenderModel): TViewerSite {
  return {
    projectId: site.projectId,
    slug: site.slug,
    title: site.title.trim() || 'Shared files',
    authorName: site.authorName.trim(),
    totalBytes: site.files.reduce((sum, file) => sum + file.size, 0),
    settings: toPublicSiteSettings(site.settings),
  };
}
