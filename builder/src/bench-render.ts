/**
 * Renders many small sites in one process and prints ms per render.
 * Usage: NODE_ENV=production node builder/src/bench-render.ts [count]   (template must be built)
 */
import { DEFAULT_PUBLIC_SITE_SETTINGS, type TFileKind, type TSiteFile, type TSiteRenderModel } from '@dropsite/shared';
import { loadSiteRenderer } from './render.ts';

const count = Number(process.argv[2] ?? 1000);
const KINDS: [TFileKind, string][] = [
  ['image', 'jpg'],
  ['pdf', 'pdf'],
  ['archive', 'zip'],
  ['video', 'mp4'],
  ['document', 'docx'],
];

function makeSite(n: number): TSiteRenderModel {
  const files: TSiteFile[] = Array.from({ length: 2 + (n % 7) }, (_, i) => {
    const [kind, ext] = KINDS[(n + i) % KINDS.length]!;
    const id = `f${n}_${i}`.padEnd(16, '0');
    const image = kind === 'image';
    return {
      id,
      name: `file-${n}-${i}.${ext}`,
      type: '',
      size: 10_000 * (i + 1) + n,
      kind,
      url: `/api/files/${id}?mode=preview`,
      downloadUrl: `/api/files/${id}?mode=download`,
      thumbnailUrl: image ? `/api/files/${id}?mode=preview&size=300` : null,
      width: image ? 4000 : null,
      height: image ? 3000 : null,
      thumbnailWidth: image ? 300 : null,
      thumbnailHeight: image ? 225 : null,
      format: image ? 'jpeg' : null,
      uploadedAt: '2025-01-01T00:00:00.000Z',
      group: null,
      details: {},
    };
  });
  return {
    projectId: `p${n}`,
    slug: `site-${n}`,
    title: `Project ${n}`,
    subLine: 'A few files for review',
    tagLine: 'Delivery',
    description: 'Files shared for the benchmark.',
    authorName: n % 2 ? 'Ann Example' : '',
    template: 'universal',
    theme: n % 3 ? 'professional-light' : 'professional-dark',
    settings: DEFAULT_PUBLIC_SITE_SETTINGS,
    contactInfo: { email: n % 2 ? 'ann@example.com' : '', website: '', instagram: '', twitter: '', linkedin: '', github: '' },
    files,
    publishedAt: '2025-01-01T00:00:00.000Z',
    siteOrigin: 'https://dropsite.example',
  };
}

const loadStart = performance.now();
const renderer = await loadSiteRenderer();
const loadMs = performance.now() - loadStart;
const sites = Array.from({ length: count }, (_, n) => makeSite(n));
for (let i = 0; i < 50; i++) await renderer.render(sites[i % sites.length]!); // warm-up

const heapBefore = process.memoryUsage().heapUsed;
let bytes = 0;
const start = performance.now();
for (const site of sites) bytes += (await renderer.render(site)).length;
const total = performance.now() - start;
const heapAfter = process.memoryUsage().heapUsed;

console.log(
  JSON.stringify({
    nodeEnv: process.env.NODE_ENV ?? null,
    renders: count,
    loadMs: Math.round(loadMs),
    totalMs: Math.round(total),
    msPerRender: Number((total / count).toFixed(3)),
    avgHtmlBytes: Math.round(bytes / count),
    heapDeltaMb: Number(((heapAfter - heapBefore) / 1024 / 1024).toFixed(1)),
  }),
);
