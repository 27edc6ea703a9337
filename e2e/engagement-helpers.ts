/** Publishing a site with engagement on, the way the wizard does, for the engagement e2e files. */
import { expect, type APIRequestContext } from '@playwright/test';
import sharp from 'sharp';

export const ALL_ENGAGEMENT = { enableFavorites: true, enableComments: true, enableApprovals: true, enableAnalytics: true };

export async function makeJpeg(width: number, height: number, rgb: [number, number, number]): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: rgb[0], g: rgb[1], b: rgb[2] } } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

export interface TPublishedSite {
  url: string;
  slug: string;
}

/**
 * POST /api/upload with the given images and settings, then waits until the site is live.
 * With a browser context's `request`, the anonymous creator cookie lands in that context.
 */
export async function publishSite(
  request: APIRequestContext,
  baseURL: string,
  options: { title: string; images: { name: string; rgb: [number, number, number] }[]; settings?: Record<string, boolean> },
): Promise<TPublishedSite> {
  const multipart: Record<string, string | { name: string; mimeType: string; buffer: Buffer }> = {
    title: options.title,
    description: 'Selects for review',
    authorName: 'Mara Lind',
    template: 'universal',
    settings: JSON.stringify(options.settings ?? ALL_ENGAGEMENT),
  };
  // Playwright's multipart takes one value per key; repeated `files` parts need FormData.
  const form = new FormData();
  for (const [key, value] of Object.entries(multipart)) form.append(key, value as string);
  for (const image of options.images) {
    const bytes = await makeJpeg(900, 600, image.rgb);
    form.append('files', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), image.name);
  }
  const res = await request.post('/api/upload', { multipart: form, headers: { Origin: baseURL } });
  expect(res.status(), await res.text()).toBe(201);
  const body = (await res.json()) as { url: string; slug: string };
  await expect.poll(async () => ((await (await request.get(`/api/sites/${body.slug}/status`)).json()) as { status: string }).status, { timeout: 30_000 }).toBe('live');
  return body;
}
