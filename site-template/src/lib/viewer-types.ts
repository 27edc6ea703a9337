/** What the viewer islands receive about the site (kept small: it is serialised into each island's props). */
import type { TSiteRenderModel, TSiteSettings } from '@dropsite/shared';

export interface TViewerSite {
  projectId: string;
  slug: string;
  title: string;
  authorName: string;
  settings: TSiteSettings;
}

export function toViewerSite(site: TSiteRenderModel): TViewerSite {
  return { projectId: site.projectId, slug: site.slug, title: site.title.trim() || 'Shared files', authorName: site.authorName.trim(), settings: site.settings };
}
