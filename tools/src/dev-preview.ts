/**
 * Builds fixture sites into a folder and serves them, to look at the template in a browser.
 * Usage: npm run preview -- [--out /tmp/dropsite-preview] [--port 4600] [--no-serve]
 * Then open http://localhost:4600/{slug} (slugs are printed). The server maps the API's file
 * URLs to the derived files, the way the control-api serves them.
 */
import { createServer } from 'node:http';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { TEMPLATE_ASSETS_PREFIX } from '@dropsite/shared';
import { createSiteBuilder } from '@dropsite/builder';
import { assetContentType } from '@dropsite/builder';
import { MemoryStorage } from '@dropsite/testkit/builder/memory-storage';
import { addFile, makeImage, makeSite } from '@dropsite/testkit/builder/fixtures';
import type { TBuildFile, TBuildInput } from '@dropsite/builder';

const { values } = parseArgs({
  options: { out: { type: 'string', default: '/tmp/dropsite-preview' }, port: { type: 'string', default: '4600' }, 'no-serve': { type: 'boolean', default: false } },
});
const out = path.resolve(values.out);

const storage = new MemoryStorage();
const builder = createSiteBuilder({ storage, siteOrigin: `http://localhost:${values.port}`, log: { info() {}, warn: console.warn, error: console.error } });

const photo = (name: string, w: number, h: number, hue: number) => makeImage(w, h, { hue }).then((bytes) => addFile(storage, name, bytes));
const blob = (name: string, size: number) => addFile(storage, name, Buffer.alloc(size, 7));

const gallery = await Promise.all([
  photo('harbour-dawn.jpg', 3000, 2000, 205),
  photo('lighthouse-portrait.jpg', 2000, 3000, 25),
  photo('nets-and-rope.jpg', 2400, 2400, 160),
  photo('blue-hour.jpg', 3200, 2000, 230),
  photo('fishmarket.jpg', 2000, 2800, 12),
  photo('last-light.jpg', 3000, 2000, 285),
]);
const documents = await Promise.all([
  blob('Usage licence — Harbour Lights.pdf', 284_000),
  blob('full-resolution-selects.zip', 48_200_000),
  blob('behind-the-scenes.mp4', 96_400_000),
]);
const many = await Promise.all(
  Array.from({ length: 12 }, (_, i) => photo(`frame-${String(i + 1).padStart(2, '0')}.jpg`, i % 3 ? 3000 : 2000, i % 3 ? 2000 : 3000, (i * 29) % 360)),
);

const sites: TBuildInput[] = [
  {
    site: makeSite({ slug: 'harbour-lights', theme: 'professional-light' }),
    files: [...gallery, ...documents],
  },
  {
    site: makeSite({ slug: 'harbour-lights-dark', theme: 'professional-dark' }),
    files: [...gallery, ...documents],
  },
  {
    site: makeSite({
      slug: 'brand-guidelines',
      theme: '',
      title: 'Northwind Brand Guidelines',
      subLine: 'Logo files, colour references and the full guideline PDF for the agency team.',
      tagLine: 'Design handoff',
      description: '',
      authorName: 'Studio Kettle',
    }),
    files: documents,
  },
  { site: makeSite({ slug: 'contact-sheet', title: 'Contact sheet — October', theme: 'professional-light' }), files: many },
];

await rm(out, { recursive: true, force: true });
for (const input of sites) {
  const result = await builder.buildSite(input, async () => {});
  await save(`${input.site.slug}/index.html`, storage.objects.get(result.htmlKey)!.body);
  for (const file of input.files) {
    const meta = result.derived[file.id];
    await save(`api/files/${file.id}/download`, storage.objects.get(file.storageKey)!.body);
    if (meta?.thumbnail) await save(`api/files/${file.id}/thumb`, storage.objects.get(meta.thumbnail.key)!.body);
  }
}
for (const key of storage.keys(TEMPLATE_ASSETS_PREFIX)) await save(`_astro/${key.slice(TEMPLATE_ASSETS_PREFIX.length)}`, storage.objects.get(key)!.body);
await save('files.json', Buffer.from(JSON.stringify(Object.fromEntries([...gallery, ...documents, ...many].map((f: TBuildFile) => [f.id, { name: f.name, type: f.type }])))));
console.log(`Wrote ${sites.length} sites to ${out}`);

async function save(rel: string, body: Buffer) {
  const target = path.join(out, rel);
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(target, body);
}

if (!values['no-serve']) {
  const names = JSON.parse(await readFile(path.join(out, 'files.json'), 'utf8')) as Record<string, { name: string; type: string }>;
  createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    let file: string;
    let type: string;
    const api = /^\/api\/files\/([\w-]+)$/.exec(url.pathname);
    if (api) {
      const id = api[1]!;
      const mode = url.searchParams.get('mode');
      // As the API: size=300 is the derived thumbnail; otherwise the original (preview inline, download attached).
      const variant = mode !== 'download' && url.searchParams.get('size') === '300' ? 'thumb' : 'download';
      file = path.join(out, 'api/files', id, variant);
      type = variant === 'thumb' ? 'image/webp' : (names[id]?.type ?? 'application/octet-stream');
      if (mode === 'download') res.setHeader('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(names[id]?.name ?? id)}`);
    } else if (url.pathname.startsWith('/_astro/')) {
      file = path.join(out, path.normalize(url.pathname).replace(/^(\.\.[/\\])+/, ''));
      type = assetContentType(file);
    } else {
      const slug = url.pathname.split('/').filter(Boolean)[0] ?? sites[0]!.site.slug;
      file = path.join(out, path.basename(slug), 'index.html');
      type = 'text/html; charset=utf-8';
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': type, 'content-length': body.length });
      res.end(body);
    } catch {
      res.writeHead(404).end('Not found');
    }
  }).listen(Number(values.port), () => {
    console.log(`Serving on http://localhost:${values.port}/ — ${sites.map((s) => `/${s.site.slug}`).join(' ')}`);
  });
}
