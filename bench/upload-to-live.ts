/**
 * Upload-to-live: 10 camera-size JPEGs (4000x3000) and one PDF through POST /api/upload
 * on the embedded defaults, timed until the site's status is live (thumbnails and
 * display copies derived, HTML written). Target: under 3 s.
 */
import { makeCameraJpeg, makePdf, median, printFigures, startEmbeddedApp, withJpegComment } from './lib.ts';

process.env.NODE_ENV = 'production';
const RUNS = Number(process.env.BENCH_RUNS ?? 3);

const photos = await Promise.all(Array.from({ length: 10 }, (_, i) => makeCameraJpeg(i + 1)));
const pdf = makePdf(3);
const totalBytes = photos.reduce((n, p) => n + p.length, 0) + pdf.length;

const env = await startEmbeddedApp();
const { base } = env;

const times: number[] = [];
const uploadTimes: number[] = [];
for (let run = 0; run < RUNS; run++) {
  const form = new FormData();
  form.append('title', `Camera delivery ${run + 1}`);
  form.append('description', 'Ten full-resolution photographs and a contract');
  photos.forEach((p, i) => {
    const bytes = new Uint8Array(withJpegComment(p, `run ${run} ${process.pid}`));
    form.append('files', new Blob([bytes], { type: 'image/jpeg' }), `DSC_${String(i + 1).padStart(4, '0')}.jpg`);
  });
  form.append('files', new Blob([new Uint8Array(pdf)], { type: 'application/pdf' }), `contract-${run}.pdf`);
  const started = performance.now();
  const res = await fetch(`${base}/api/upload`, { method: 'POST', body: form });
  const body = (await res.json()) as { slug?: string; error?: string };
  if (!body.slug) throw new Error(`upload failed: ${JSON.stringify(body)}`);
  uploadTimes.push(performance.now() - started);
  for (;;) {
    const s = (await (await fetch(`${base}/api/sites/${body.slug}/status`)).json()) as { status: string };
    if (s.status === 'live') break;
    if (s.status === 'failed') throw new Error('build failed');
    await new Promise((r) => setTimeout(r, 10));
  }
  times.push(performance.now() - started);
  const page = await fetch(`${base}/${body.slug}`);
  if (page.status !== 200) throw new Error(`site answered ${page.status}`);
  await page.arrayBuffer();
}

await env.dispose();

printFigures('Upload-to-live: 10 x 4000x3000 JPEG + 1 PDF, embedded defaults', [
  ['payload', `${(totalBytes / 1024 / 1024).toFixed(1)} MB in 11 files`],
  ['runs', String(RUNS)],
  ['upload request (median)', `${(median(uploadTimes) / 1000).toFixed(2)} s`],
  ['upload to live (median)', `${(median(times) / 1000).toFixed(2)} s`],
  ['upload to live (each)', times.map((t) => `${(t / 1000).toFixed(2)} s`).join(', ')],
  ['target', 'under 3 s'],
  ['result', median(times) < 3000 ? 'PASS' : 'MISS'],
]);
