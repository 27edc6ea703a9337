/**
 * npm run compose:check: brings docker-compose.yml up (building the image from this repository),
 * then checks the deployment as a visitor and an operator meet it, and prints check | outcome:
 * every service running and healthy (PostgreSQL, Redis, the API, both builders), the bucket made,
 * the API not running as root; an anonymous publish through the edge goes live on the builders; its
 * page is then served by the edge from the store's public copy (no API request id on it), with its
 * assets and a thumbnail; a published .pptx is converted by LibreOffice in the builder's sandbox (a
 * PDF preview and a first-page picture, not a download card); a stop lets the API and the builders drain and exit 0 on SIGTERM; and
 * recreated (new containers on new addresses) they are reached by the edge again and find the site
 * where they left it. Takes the deployment down with its volumes at the end unless --keep. Exits 1
 * when a check fails.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { ZUploadResponseSchema } from '@dropsite/shared';
import { readCommandLine } from '@dropsite/scripts/cli';
import { makePptx } from '@dropsite/scripts/demo/pptx';
import { eventually } from './stack-test-support.ts';
import { formatTable } from '@dropsite/scripts/text-table';

const ROOT = path.resolve(import.meta.dirname, '../..');
const EDGE_URL = 'http://localhost:8080';
const PROJECT = 'dropsite';

const USAGE = `Usage: npm run compose:check [-- --keep]

Builds the image, starts docker-compose.yml (project "${PROJECT}", the edge on ${EDGE_URL}), checks
the services' health and that the API does not run as root, publishes a site through the edge,
checks that it goes live and that the edge serves its page from the store, publishes a small
.pptx and checks the builders converted it (a PDF preview, not a download card), stops the API and
builders with SIGTERM and checks they exit 0, then recreates them on new addresses and checks the
edge reaches them and the site is still there. Prints check | outcome and exits 1 if any check
fails. Needs Docker with Compose (docker compose, or docker-compose 1.29). SESSION_SECRET is
generated for the run unless set.

Options:
  --keep      Leave the deployment running (and its volumes) instead of taking it down.
  -h, --help  Show this help.
`;

const { values } = readCommandLine(USAGE, { keep: { type: 'boolean', default: false } });
const run = promisify(execFile);

interface TCheck {
  name: string;
  outcome: string;
  ok: boolean;
}
const checks: TCheck[] = [];
const check = (name: string, ok: boolean, outcome: string) => {
  checks.push({ name, ok, outcome: `${ok ? 'PASS' : 'FAIL'}  ${outcome}` });
  process.stdout.write(`${ok ? 'PASS' : 'FAIL'}  ${name}: ${outcome}\n`);
};

/** `docker compose` (v2) when the plugin is there, else docker-compose 1.29, which knows no top-level `name:` (the project is named with -p either way). */
async function composeCommand(dir: string): Promise<string[]> {
  const file = path.join(ROOT, 'docker-compose.yml');
  if (await succeeds('docker', ['compose', 'version'])) return ['docker', 'compose', '-p', PROJECT, '-f', file];
  if (await succeeds('docker-compose', ['version'])) {
    const copy = path.join(dir, 'docker-compose.yml');
    const text = await readFile(file, 'utf8');
    // 1.x hands security options to the daemon as written: the seccomp profile goes inline, and it
    // cannot unmask system paths at all, so the builder's sandbox cannot mount its /proc there.
    const seccomp = JSON.stringify(JSON.parse(await readFile(path.join(ROOT, 'deploy/builder-seccomp.json'), 'utf8')));
    await writeFile(
      copy,
      text
        .replace(/^name: .*\n/m, '')
        .replace('- seccomp=deploy/builder-seccomp.json', `- 'seccomp=${seccomp}'`)
        .replace(/^\s*- systempaths=unconfined\n/m, ''),
    );
    process.stdout.write('docker-compose 1.x cannot pass systempaths=unconfined: expect the deck check to fail (a download card).\n');
    return ['docker-compose', '-p', PROJECT, '-f', copy, '--project-directory', ROOT];
  }
  process.stderr.write('npm run compose:check needs Docker with Compose (docker compose or docker-compose): neither answered.\n');
  await rm(dir, { recursive: true, force: true });
  process.exit(1);
}

async function succeeds(command: string, args: string[]): Promise<boolean> {
  try {
    await run(command, args, { timeout: 30_000 });
    return true;
  } catch {
    return false;
  }
}

/** `eventually`, once a second, with a probe that fails (a connection refused while starting) counted as no answer yet. */
const waitFor = <T>(what: string, probe: () => Promise<T | undefined>, timeoutMs: number): Promise<T> => eventually(what, () => probe().catch(() => undefined), timeoutMs, 1000);

const dir = await mkdtemp(path.join(os.tmpdir(), 'dropsite-compose-'));
const compose = await composeCommand(dir);
const env = { ...process.env, SESSION_SECRET: process.env.SESSION_SECRET ?? randomBytes(36).toString('base64') };
const composeRun = async (args: string[], timeoutMs = 30 * 60_000): Promise<string> => {
  const [command, ...rest] = compose;
  const { stdout } = await run(command!, [...rest, ...args], { env, cwd: ROOT, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  return stdout;
};
/** `docker inspect --format` of each container of the project (of one service; only running ones), a line each. */
const inspectContainers = async (format: string, which: { service?: string; running?: boolean } = {}): Promise<string[]> => {
  const filters = ['--filter', `label=com.docker.compose.project=${PROJECT}`, ...(which.service ? ['--filter', `label=com.docker.compose.service=${which.service}`] : [])];
  const ids = (await run('docker', ['ps', ...(which.running ? [] : ['-a']), '-q', ...filters])).stdout.split('\n').filter(Boolean);
  if (ids.length === 0) return [];
  return (await run('docker', ['inspect', '--format', format, ...ids])).stdout.trim().split('\n');
};
/** Each container of the project: its service, state, exit code and health (none without a healthcheck). */
const containers = async (): Promise<Array<{ service: string; status: string; exitCode: number; health: string }>> => {
  const lines = await inspectContainers(
    '{{index .Config.Labels "com.docker.compose.service"}}|{{.State.Status}}|{{.State.ExitCode}}|{{if .State.Health}}{{.State.Health.Status}}{{else}}none{{end}}',
  );
  return lines.map((line) => {
    const [service = '', status = '', exitCode = '', health = ''] = line.split('|');
    return { service, status, exitCode: Number(exitCode), health };
  });
};

/**
 * Containers that only hold an address on the compose network (removed at the end). They run the API's
 * image, which Compose v2 labels with the project and service it was built for: their own labels replace
 * those, so neither compose nor the checks take them for containers of the API.
 */
const placeholders: string[] = [];
const holdAddresses = async (count: number): Promise<void> => {
  const [api = ''] = await inspectContainers('{{.Image}}|{{range $name, $_ := .NetworkSettings.Networks}}{{$name}}{{end}}', { service: 'api' });
  const [image = '', network = ''] = api.split('|');
  const labels = ['--label', `com.docker.compose.project=${PROJECT}-placeholder`, '--label', 'com.docker.compose.service=placeholder'];
  for (let i = 0; i < count; i++)
    placeholders.push((await run('docker', ['run', '-d', '--rm', ...labels, '--network', network, '--entrypoint', 'sleep', image, '600'])).stdout.trim());
};

/** The running API container's address on the compose network. */
const apiAddress = async (): Promise<string> => {
  const addresses = await inspectContainers('{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}', { service: 'api', running: true });
  return addresses.length === 0 ? 'none' : addresses.join(', ');
};

let failed = false;
process.once('SIGINT', () => {
  process.stderr.write(`\nInterrupted: the deployment may still be running; take it down with: ${compose.join(' ')} down -v\n`);
  process.exit(130);
});
try {
  process.stdout.write('Building the image and starting the deployment (the first build takes a few minutes)…\n');
  const started = performance.now();
  await composeRun(['up', '-d', '--build', '--scale', 'builder=2']);
  const edgeUp = await waitFor('the edge answering /api/health', async () => ((await fetch(`${EDGE_URL}/api/health`)).ok ? true : undefined), 5 * 60_000).catch(() => false);
  const edgeAfter = `${((performance.now() - started) / 1000).toFixed(0)} s from up`;
  // Every healthcheck passing: the API's and each builder's /readyz (database, queue, storage, migrations).
  const services = await waitFor(
    'every service healthy',
    async () => {
      const all = await containers();
      const builders = all.filter((c) => c.service === 'builder');
      const healthy = all.every((c) => c.health === 'none' || c.health === 'healthy');
      return healthy && builders.length === 2 ? all : undefined;
    },
    3 * 60_000,
  ).catch(async () => containers());
  const describe = (service: string) => {
    const found = services.filter((c) => c.service === service);
    return found.length === 0 ? 'missing' : found.map((c) => (c.health === 'none' ? `${c.status} (exit ${c.exitCode})` : `${c.status}, ${c.health}`)).join('; ');
  };
  for (const service of ['postgres', 'redis', 'api', 'builder']) {
    const found = services.filter((c) => c.service === service);
    check(
      `${service} running and healthy`,
      found.length === (service === 'builder' ? 2 : 1) && found.every((c) => c.status === 'running' && c.health === 'healthy'),
      describe(service),
    );
  }
  const store = services.filter((c) => c.service === 'minio');
  check('store running', store.length === 1 && store[0]!.status === 'running', describe('minio'));
  const init = services.filter((c) => c.service === 'minio-init');
  check('bucket made (minio-init)', init.length === 1 && init[0]!.status === 'exited' && init[0]!.exitCode === 0, describe('minio-init'));
  // The server's user: not root, the code read-only to it, only the data folder its own (docs/security.md, Low 20).
  const user = (
    await composeRun(
      [
        'exec',
        '-T',
        'api',
        'sh',
        '-c',
        'id -un; test -w /app/control-api/src && echo code-writable || echo code-read-only; test -w /app/data && echo data-writable || echo data-read-only',
      ],
      60_000,
    )
  )
    .trim()
    .split(/\s+/);
  check('API runs unprivileged', user[0] !== 'root' && user[1] === 'code-read-only' && user[2] === 'data-writable', user.join(', '));
  check('edge answering', edgeUp, edgeUp ? `${EDGE_URL} in ${edgeAfter}` : `no answer from ${EDGE_URL}/api/health in ${edgeAfter}`);
  if (!edgeUp) throw new Error('the edge never answered');

  // A visitor's publish through the edge, built by the builders, then served by the edge.
  const title = `Compose check ${new Date().toISOString().slice(0, 16)}`;
  const form = new FormData();
  form.append('title', title);
  for (const [i, background] of [
    { r: 200, g: 120, b: 40 },
    { r: 40, g: 90, b: 160 },
  ].entries()) {
    const photo = await sharp({ create: { width: 1200, height: 800, channels: 3, background } })
      .jpeg()
      .toBuffer();
    form.append('files', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), `frame-${i + 1}.jpg`);
  }
  const published = await fetch(`${EDGE_URL}/api/upload`, { method: 'POST', body: form });
  const answer = ZUploadResponseSchema.parse(await published.json());
  check('publish through the edge', published.status === 201 && answer.success, `${published.status} ${answer.success ? answer.slug : answer.error}`);
  if (!answer.success) throw new Error('the publish was refused');
  const slug = answer.slug;
  const publishedAt = performance.now();
  const status = await waitFor(
    `${slug} live`,
    async () => {
      const { status } = (await (await fetch(`${EDGE_URL}/api/sites/${slug}/status`)).json()) as { status?: string };
      return status === 'live' || status === 'failed' ? status : undefined;
    },
    120_000,
  ).catch(() => 'not live');
  check('site built by a builder', status === 'live', `${status} ${((performance.now() - publishedAt) / 1000).toFixed(1)} s after the publish`);

  const fromEdge = await waitFor(
    'the page from the public copy',
    async () => {
      const res = await fetch(`${EDGE_URL}/${slug}`);
      const html = await res.text();
      return res.status === 200 && res.headers.get('x-request-id') === null ? { html, res } : undefined;
    },
    15_000,
  ).catch(() => undefined);
  check(
    'page served by the edge from the store',
    fromEdge?.html.includes(title) === true,
    fromEdge ? `200, ${fromEdge.html.length} bytes, no API request id, CSP ${fromEdge.res.headers.get('content-security-policy') ? 'sent' : 'missing'}` : 'never without the API',
  );
  const html = fromEdge?.html ?? (await (await fetch(`${EDGE_URL}/${slug}`)).text());
  const asset = /\/_astro\/[^"'\s)]+\.(?:css|js)/.exec(html)?.[0];
  const assetRes = asset ? await fetch(`${EDGE_URL}${asset}`) : undefined;
  check(
    'assets from the store',
    assetRes?.status === 200 && (assetRes.headers.get('cache-control') ?? '').includes('immutable'),
    asset ? `${asset}: ${assetRes?.status}, ${assetRes?.headers.get('cache-control')}` : 'no asset on the page',
  );
  const thumbnail = /\/api\/files\/[A-Za-z0-9_-]+\?mode=preview&(?:amp;)?size=\d+/.exec(html)?.[0]?.replace('&amp;', '&');
  const thumbRes = thumbnail ? await fetch(`${EDGE_URL}${thumbnail}`) : undefined;
  const thumbBytes = thumbRes ? (await thumbRes.arrayBuffer()).byteLength : 0;
  check(
    'thumbnail through the API',
    thumbRes?.status === 200 && (thumbRes.headers.get('content-type') ?? '').startsWith('image/'),
    thumbnail ? `${thumbRes?.status} ${thumbRes?.headers.get('content-type')}, ${thumbBytes} bytes` : 'no thumbnail on the page',
  );

  // A deck: the builders convert it with LibreOffice in their sandbox, so the page shows a PDF preview
  // with its first page drawn, never the download card an image without LibreOffice (or its sandbox) gives.
  const deckForm = new FormData();
  deckForm.append('title', `${title} deck`);
  deckForm.append(
    'files',
    new Blob([new Uint8Array(makePptx(['Compose check', 'Converted by the builder']))], { type: 'application/vnd.openxmlformats-officedocument.presentationml.presentation' }),
    'deck.pptx',
  );
  const deckPublished = await fetch(`${EDGE_URL}/api/upload`, { method: 'POST', body: deckForm });
  const deckAnswer = ZUploadResponseSchema.parse(await deckPublished.json());
  const deckStatus = deckAnswer.success
    ? await waitFor(
        `${deckAnswer.slug} live`,
        async () => {
          const { status } = (await (await fetch(`${EDGE_URL}/api/sites/${deckAnswer.slug}/status`)).json()) as { status?: string };
          return status === 'live' || status === 'failed' ? status : undefined;
        },
        240_000,
      ).catch(() => 'not live')
    : `refused: ${deckAnswer.error}`;
  const deckHtml = deckAnswer.success && deckStatus === 'live' ? await (await fetch(`${EDGE_URL}/${deckAnswer.slug}`)).text() : '';
  const pdfPath = /\/api\/files\/[A-Za-z0-9_-]+\/pdf(?:\?v=\d+)?/.exec(deckHtml)?.[0];
  const firstPagePath = /\/api\/files\/[A-Za-z0-9_-]+\/first-page(?:\?v=\d+)?/.exec(deckHtml)?.[0];
  const pdfRes = pdfPath ? await fetch(`${EDGE_URL}${pdfPath}`) : undefined;
  const pdfHead = pdfRes
    ? Buffer.from(await pdfRes.arrayBuffer())
        .subarray(0, 5)
        .toString('latin1')
    : '';
  const firstPageRes = firstPagePath ? await fetch(`${EDGE_URL}${firstPagePath}`) : undefined;
  const isCard = /class="download-card[\s"]/.test(deckHtml);
  check(
    'deck converted by LibreOffice',
    pdfRes?.status === 200 && pdfHead === '%PDF-' && firstPageRes?.status === 200 && (firstPageRes.headers.get('content-type') ?? '').startsWith('image/') && !isCard,
    deckStatus !== 'live'
      ? `${deckStatus}`
      : pdfPath
        ? `PDF ${pdfRes?.status} ${pdfHead === '%PDF-' ? 'a PDF' : 'not a PDF'}, first page ${firstPageRes?.status ?? 'missing'} ${firstPageRes?.headers.get('content-type') ?? ''}${isCard ? ', but a download card too' : ''}`
        : `no PDF preview on the page${isCard ? `: a download card (${/download-card__reason"[^>]*>([^<]*)/.exec(deckHtml)?.[1] ?? 'no reason'})` : ''}`,
  );

  // SIGTERM: the API drains and exits, a builder hands back or finishes its job; both exit 0.
  const addressBefore = await apiAddress();
  const stopStarted = performance.now();
  await composeRun(['stop', '-t', '30', 'api', 'builder'], 120_000);
  const stopped = (await containers()).filter((c) => c.service === 'api' || c.service === 'builder');
  check(
    'API and builders stop on SIGTERM',
    stopped.length === 3 && stopped.every((c) => c.status === 'exited' && c.exitCode === 0),
    `${stopped.map((c) => `${c.service} exit ${c.exitCode}`).join(', ')} in ${((performance.now() - stopStarted) / 1000).toFixed(1)} s`,
  );

  // Recreated (as an image update does), they come back on new addresses: the edge finds them by
  // name again, and they find the site where they left it (PostgreSQL and the store keep it in volumes).
  // Three placeholders take the addresses the three stopped containers let go of, so the new ones get others.
  await holdAddresses(3);
  await composeRun(['up', '-d', '--no-deps', '--force-recreate', '--scale', 'builder=2', 'api', 'builder'], 300_000);
  const recreatedAt = performance.now();
  const again = await waitFor(
    'the site after the API and builders were recreated',
    async () => {
      const { status } = (await (await fetch(`${EDGE_URL}/api/sites/${slug}/status`)).json()) as { status?: string };
      return status === 'live' ? (await fetch(`${EDGE_URL}/${slug}?view=again`)).status : undefined;
    },
    120_000,
  ).catch(() => undefined);
  const addressAfter = await apiAddress();
  check(
    'site kept, API reached after a recreate',
    again === 200 && addressAfter !== addressBefore,
    `${again === undefined ? 'the edge never reached the new API' : `live, page ${again}, ${((performance.now() - recreatedAt) / 1000).toFixed(1)} s after up`}; API ${addressBefore} -> ${addressAfter}`,
  );
} catch (error) {
  check('deployment', false, error instanceof Error ? error.message : String(error));
} finally {
  failed = checks.some((c) => !c.ok);
  if (failed) process.stdout.write(`\nLast log lines:\n${await composeRun(['logs', '--tail', '30'], 60_000).catch((e) => String(e))}\n`);
  process.stdout.write(`\n${formatTable([['check', 'outcome'], ...checks.map((c) => [c.name, c.outcome])])}`);
  if (placeholders.length > 0) await run('docker', ['rm', '-f', ...placeholders]).catch(() => undefined);
  if (!values.keep) await composeRun(['down', '-v', '--remove-orphans'], 120_000).catch((e) => process.stderr.write(`compose down: ${String(e)}\n`));
  else process.stdout.write(`\nLeft running (--keep): ${EDGE_URL}; take it down with: ${compose.join(' ')} down -v\n`);
  await rm(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
