/**
 * npm run rebuild -- --slug X | --all
 * Re-renders sites through the build queue. With REDIS_URL the running builders do
 * the work; on the embedded defaults this process builds in-process.
 */
import { parseArgs } from 'node:util';
import { createRuntime, findProjectIdsForRebuild, loadConfig, rebuildProjects } from '@dropsite/control-api';
import { createProgressBar } from './progress-bar.ts';

process.env.NODE_ENV ??= 'production';

const { values } = parseArgs({ options: { slug: { type: 'string', multiple: true }, all: { type: 'boolean', default: false } } });
if (!values.all && !values.slug?.length) {
  process.stderr.write('Usage: npm run rebuild -- --slug <slug> [--slug <slug> …] | --all\n');
  process.exit(2);
}

const config = loadConfig();
const runtime = await createRuntime({ ...config, logLevel: 'warn' }, { runBuilder: !config.redisUrl });
let exitCode = 0;
try {
  const ids = await findProjectIdsForRebuild(runtime.deps.db, values.all ? { all: true } : { slugs: values.slug ?? [] });
  if (ids.missing.length > 0) {
    process.stderr.write(`No site with slug: ${ids.missing.join(', ')}\n`);
    exitCode = 1;
  }
  if (ids.projectIds.length > 0) {
    const bar = createProgressBar('Rebuilding');
    const result = await rebuildProjects(runtime.deps, ids.projectIds, (p) => bar.update(p.done + p.failed, p.total, p.failed ? `(${p.failed} failed)` : ''));
    process.stdout.write(`Rebuilt ${result.done} of ${result.total} sites in ${(result.ms / 1000).toFixed(2)} s${result.failed ? `; ${result.failed} failed` : ''}\n`);
    if (result.failed > 0) exitCode = 1;
  } else if (values.all) {
    process.stdout.write('No sites to rebuild.\n');
  }
} finally {
  await runtime.close();
}
process.exit(exitCode);
