/** How a site is described in the lists of a creator's sites (the signed-in dashboard's and an anonymous session's). */
import type { TSiteSettings } from '@dropsite/shared';
import type { TSiteRow } from '../db/tables.ts';

type TSummarySource = Pick<TSiteRow, 'id' | 'title' | 'description' | 'slug' | 'status' | 'created_at' | 'expires_at' | 'password_hash'>;

const iso = (ms: number) => new Date(ms).toISOString();

/** The site's identity, link, state and dates as both lists give them (never the password hash, only whether there is one). */
export function siteSummaryOf(publicUrl: string, p: TSummarySource) {
  return {
    id: p.id,
    title: p.title,
    description: p.description,
    slug: p.slug,
    url: `${publicUrl}/${p.slug}`,
    status: p.status,
    created_at: iso(p.created_at),
    expires_at: p.expires_at === null ? null : iso(p.expires_at),
    has_password: p.password_hash !== null,
  };
}

/** Which engagement features the site has switched on, in the lists' snake_case. */
export function engagementSwitchesOf(settings: TSiteSettings) {
  return { enable_favorites: settings.enableFavorites, enable_comments: settings.enableComments, enable_approvals: settings.enableApprovals };
}
