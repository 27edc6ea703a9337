/**
 * npm run seed-demo [-- --force] [-- --slug photo-gallery …]
 * (Re)builds the demo sites (one per template, at the catalogue's demo paths) from the sample
 * projects in scripts/src/demo/: makes the sample files if they are not cached, saves each demo's
 * project and files, and builds it through the queue, waiting for each. Demos already built from
 * their current sample and site template are left alone unless --force. With REDIS_URL the running
 * builders do the work; otherwise this process builds in-process. The API process runs this at
 * start-up when a demo is missing or out of date (control-api/src/demo-sites.ts).
 */
import { createRuntime, keepDataPrivate, loadConfig } from '@dropsite/control-api';
import { failUsage, readCommandLine } from './cli.ts';
import { demoSlugOf, seedDemoSites } from './demo/seed.ts';
import { DEMO_MANIFESTS } from './demo/projects/index.ts';
import { createProgressBar } from './progress-bar.ts';

process.env.NODE_ENV ??= 'production';

const known = DEMO_MANIFESTS.map(demoSlugOf);
const USAGE = `Usage: npm run seed-demo [-- --force] [--slug <slug> …] [--quiet]

(Re)builds the demo sites from the sample projects in scripts/src/demo/. Demos already built
from their current sample and site template are left alone unless --force. With REDIS_URL the
running builders do the work; otherwise this process builds.

Options:
  --force        Rebuild the demos even when they are current.
  --slug <slug>  Only this demo; repeat for several. Demo sites: ${known.join(', ')}
  --quiet        Print nothing but the summary, and that only when a demo was built or its card picture failed.
  -h, --help     Show this help.
`;

const { values } = readCommandLine(USAGE, {
  force: { type: 'boolean', default: false },
  slug: { type: 'string', multiple: true },
  quiet: { type: 'boolean', default: false },
});
const unknown = (values.slug ?? []).filter((s) => !known.includes(s));
if (unknown.length > 0) failUsage(USAGE, `Not a demo site: ${unknown.join(', ')}`);

const log = (line: string) => process.stdout.write(`[seed-demo] ${line}\n`);
const config = loadConfig();
keepDataPrivate(config);
const runtime = await createRuntime({ ...config, logLevel: 'warn' }, { runBuilder: !config.redisUrl });
let exitCode = 0;
try {
  // A progress bar on a terminal; a line per step elsewhere (logs), nothing but the summary with --quiet.
  const bar = !values.quiet && process.stderr.isTTY ? createProgressBar('Demo sites') : null;
  const report = await seedDemoSites(runtime.deps, {
    force: values.force,
    slugs: values.slug,
    log: values.quiet || bar ? undefined : log,
    onProgress: bar ? (done, total, slug) => bar.update(done, total, slug && `/${slug}`) : undefined,
  });
  if (report.built.length > 0 || report.previewsFailed.length > 0 || !values.quiet)
    log(
      `${report.built.length} built, ${report.current.length} already current${report.failed.length ? `, ${report.failed.length} FAILED (${report.failed.join(', ')})` : ''}${report.previewsFailed.length ? `; card pictures FAILED for ${report.previewsFailed.join(', ')}` : ''}`,
    );
  if (report.failed.length > 0) exitCode = 1;
} catch (err) {
  process.stderr.write(`[seed-demo] ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  exitCode = 1;
} finally {
  await runtime.close();
}
process.exit(exitCode);
