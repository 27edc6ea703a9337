import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { gunzipSync, gzipSync } from 'node:zlib';
import { gzipPage, splitPage } from './stitched-gzip.ts';

/** A page shaped like a site's: a head, the template's long CSS twice, a short scoped style, a body with non-ASCII text. */
function page(title: string): string {
  const theme = Array.from({ length: 400 }, (_, i) => `[data-theme="t${i}"]{--c-${i % 17}:#${(i * 7919).toString(16).padStart(6, '0').slice(0, 6)}}`).join('');
  const site = Array.from(
    { length: 400 },
    (_, i) => `.card-${i}>.title{margin:${i % 9}px ${i % 5}rem;font:500 1rem/1.4 system-ui;grid-template-columns:repeat(${i % 4},1fr)}`,
  ).join('');
  const rows = Array.from(
    { length: 300 },
    (_, i) => `<li class="row"><a href="/api/files/f${i}?mode=download">Café_${i}.jpg</a> <span>${(i * 1.7).toFixed(1)} MB</span></li>`,
  ).join('');
  return `<!DOCTYPE html><html lang="en"><head><title>${title}</title><style>${theme}</style><style>${site}</style><style>astro-island{display:contents}</style></head><body><h1>${title} — épreuves 📷</h1><ul>${rows}</ul></body></html>`;
}

describe('gzipPage', () => {
  it('makes a gzip member any reader inflates to the page, byte for byte, across its seams', async () => {
    const html = page('Autumn proofs');
    const split = splitPage(html);
    expect(split.body.equals(Buffer.from(html, 'utf8'))).toBe(true);
    expect(split.parts.filter((part) => part.shared !== null)).toHaveLength(2); // the two long style elements, not the short one

    const gzip = await gzipPage(split, 6, 'sync');
    expect(gunzipSync(gzip).equals(split.body)).toBe(true);
    // The gzip tool agrees: the CRC and length in the trailer are the page's.
    const tool = spawnSync('gzip', ['-dc'], { input: gzip });
    if (tool.error === undefined) expect(Buffer.from(tool.stdout).equals(split.body)).toBe(true);
  });

  it('compresses a page within a few percent of compressing it in one go', async () => {
    const split = splitPage(page('Spring wedding'));
    const stitched = await gzipPage(split, 6, 'sync');
    const whole = gzipSync(split.body, { level: 6 });
    expect(stitched.length).toBeLessThan(whole.length * 1.05);
  });

  it('gives the same bytes for the same page on every call and either thread mode, reusing the shared parts', async () => {
    const first = await gzipPage(splitPage(page('Launch')), 6, 'sync');
    const again = await gzipPage(splitPage(page('Launch')), 6, 'sync');
    const inPool = await gzipPage(splitPage(page('Launch')), 6, 'async');
    expect(again.equals(first)).toBe(true);
    expect(inPool.equals(first)).toBe(true);
    // Another page with the same CSS inflates to its own text.
    const other = splitPage(page('Retreat'));
    expect(gunzipSync(await gzipPage(other, 6, 'async')).toString('utf8')).toContain('<title>Retreat</title>');
  });

  it('handles pages with no long style, a page that is only a style, and an empty page', async () => {
    for (const html of ['<p>short</p><style>a{b:c}</style>', `<style>${'x{y:z}'.repeat(3000)}</style>`, '']) {
      const split = splitPage(html);
      expect(gunzipSync(await gzipPage(split, 6, 'sync')).toString('utf8')).toBe(html);
    }
  });
});
