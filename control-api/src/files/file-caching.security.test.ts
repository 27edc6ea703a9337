/**
 * A file's address does not change when its site is locked, deleted or taken down, so no browser or
 * shared cache may reuse a copy of it without asking again: originals, previews, downloads,
 * thumbnails and the site's link picture are `no-cache` with a strong ETag (a 304 when nothing
 * changed), and once access changed the revalidation is refused (401, 404). Only the content-hashed
 * template bundles, whose address changes with their bytes, stay `immutable`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteOgImageKey, templateAssetKey } from '@dropsite/shared';
import { browserSignedInAs, createSignedInCreator } from '@dropsite/testkit/control-api/accounts';
import { putOnPlan } from '@dropsite/testkit/control-api/billing';
import { seedSite, type TBrowser, type TSeededSite } from '@dropsite/testkit/control-api/site-fixtures';
import { startTestApp, type TTestApp } from '@dropsite/testkit/control-api/test-app';
import { takeDownSite } from '../site-management/takedown.ts';

/** Every address of a site's files and pictures whose address stays the same across an access change. */
function stableAddresses(site: TSeededSite): string[] {
  const id = site.files[0]!.id;
  return [`/api/files/${id}`, `/api/files/${id}?mode=preview`, `/api/files/${id}?mode=download`, `/api/files/${id}?size=300`, `/${site.slug}/og.png`];
}

/** Whether a cache may hand out its stored copy without asking the server first (RFC 9111 5.2.2). */
function reusableWithoutRevalidation(cacheControl: string | null): boolean {
  const directives = (cacheControl ?? '')
    .toLowerCase()
    .split(',')
    .map((d) => d.trim());
  if (directives.includes('no-cache') || directives.includes('no-store')) return false;
  const maxAge = directives.find((d) => d.startsWith('max-age=') || d.startsWith('s-maxage='));
  return directives.includes('immutable') || (maxAge !== undefined && Number(maxAge.split('=')[1]) > 0);
}

describe('caching of a site’s files across an access change', () => {
  let app: TTestApp;
  let owner: TBrowser;
  let ownerId = '';

  const ownedSite = async (): Promise<TSeededSite> => {
    const site = await seedSite(app, { title: 'Cached', fileCount: 1 });
    await app.deps.db.updateTable('projects').set({ owner_creator_id: ownerId, workspace_id: ownerId }).where('id', '=', site.project.id).execute();
    await app.deps.storage.put(siteOgImageKey(site.slug), Buffer.from('a link picture'), { contentType: 'image/png' });
    return site;
  };

  /** What a browser's cache keeps of each address: its validator, after checking it must revalidate. */
  const cacheEvery = async (site: TSeededSite): Promise<Map<string, string>> => {
    const kept = new Map<string, string>();
    for (const address of stableAddresses(site)) {
      const res = await fetch(`${app.url}${address}`);
      await res.arrayBuffer();
      expect(res.status, address).toBe(200);
      const cacheControl = res.headers.get('cache-control');
      expect(reusableWithoutRevalidation(cacheControl), `${address}: ${cacheControl}`).toBe(false);
      expect(cacheControl, address).toBe('public, no-cache');
      const etag = res.headers.get('etag');
      // A strong validator, so the revalidation of an unchanged file is a 304 without its bytes.
      expect(etag, address).toMatch(/^"[^"]+"$/);
      const again = await fetch(`${app.url}${address}`, { headers: { 'if-none-match': etag! } });
      expect(again.status, address).toBe(304);
      expect(await again.text(), address).toBe('');
      kept.set(address, etag!);
    }
    return kept;
  };

  /** Each cached copy revalidated: the status the server answers instead of 304. */
  const revalidate = async (kept: Map<string, string>): Promise<Record<string, number>> => {
    const statuses: Record<string, number> = {};
    for (const [address, etag] of kept) {
      const res = await fetch(`${app.url}${address}`, { headers: { 'if-none-match': etag } });
      await res.arrayBuffer();
      statuses[address] = res.status;
    }
    return statuses;
  };

  const everyAddress = (kept: Map<string, string>, status: number) => Object.fromEntries([...kept.keys()].map((address) => [address, status]));

  beforeAll(async () => {
    app = await startTestApp({ startWorker: false });
    const creator = await createSignedInCreator(app.deps, { email: 'cached-owner@example.com' });
    ownerId = creator.id;
    owner = browserSignedInAs(app, creator);
    await putOnPlan(app.deps, ownerId, 'business_monthly');
  });
  afterAll(async () => {
    await app.close();
  });

  it('a file cached before the owner set a password is refused with 401 when the cache revalidates it', async () => {
    const site = await ownedSite();
    const kept = await cacheEvery(site);
    // The site's page revalidates too.
    const page = await fetch(`${app.url}/${site.slug}`);
    await page.arrayBuffer();
    expect(page.status).toBe(200);
    expect(reusableWithoutRevalidation(page.headers.get('cache-control'))).toBe(false);
    const res = await owner.fetch(`/api/projects/${site.project.id}`, { method: 'PATCH', json: { password: 'a new secret 42' } });
    expect(res.status).toBe(200);
    expect(await revalidate(kept)).toEqual(everyAddress(kept, 401));
    const locked = await fetch(`${app.url}/${site.slug}`);
    await locked.arrayBuffer();
    expect([locked.status, locked.headers.get('cache-control')]).toEqual([401, 'private, no-store']);
  });

  it('a file cached before the owner deleted the site is refused with 404 when the cache revalidates it', async () => {
    const site = await ownedSite();
    const kept = await cacheEvery(site);
    const res = await owner.fetch(`/api/projects/${site.project.id}`, { method: 'DELETE', json: { confirmTitle: 'Cached' } });
    expect(res.status).toBe(200);
    expect(await revalidate(kept)).toEqual(everyAddress(kept, 404));
  });

  it('a file cached before the site was taken down is refused with 404 when the cache revalidates it', async () => {
    const site = await ownedSite();
    const kept = await cacheEvery(site);
    expect(await takeDownSite(app.deps, site.slug, 'Reported')).not.toBeNull();
    expect(await revalidate(kept)).toEqual(everyAddress(kept, 404));
  });

  it('content-hashed template bundles stay immutable: their address changes with their bytes', async () => {
    await app.deps.storage.put(templateAssetKey('Viewer.Ab12Cd34.js'), Buffer.from('export {};'), { contentType: 'text/javascript' });
    const res = await fetch(`${app.url}/_astro/Viewer.Ab12Cd34.js`);
    await res.arrayBuffer();
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });
});
