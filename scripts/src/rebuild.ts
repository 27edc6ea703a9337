/**
 * npm run rebuild -- --slug X | --all
 * Re-renders sites through the build queue. With REDIS_URL the running builders do
 * the work; on the embedded defaults this process builds in-process. After --all, sweeps the
 * template asset versions no stored page refers to any more (past TEMPLATE_ASSETS_GRACE_HOURS)
 * and prints what it removed and what still waits.
 */
import { findSiteIdsForRebuild, rebuildSites, sweepTemplateAssetsNow, type TTemplateAssetSweepResult } from '@dropsite/control-api';
import { failUsage, readCommandLine, runWithRuntime } from './cli.ts';
import { createProgressBar } from './progress-bar.ts';

process.env.NODE_ENV ??= 'production';

const USAGE = `Usage: npm run rebuild -- --slug <slug> [--slug <slug> …] | --all

Re-renders sites through the build queue, with a progress bar. With REDIS_URL the running
builders do the work; otherwise this process builds. After --all, removes the template asset
versions no stored page refers to any more (past TEMPLATE_ASSETS_GRACE_HOURS).

Options:
  --slug <slug>  A site to rebuild; repeat for several.
  --all          Every site not deleted or taken down.
  -h, --help     Show this help.
`;

const { values } = readCommandLine(USAGE, { slug: { type: 'string', multiple: true }, all: { type: 'boolean', default: false } });
if (!values.all && !values.slug?.length) failUsage(USAGE, 'Name a site with --slug, or give --all.');

await runWithRuntime(
  async (deps) => {
    let exitCode = 0;
    const ids = await findSiteIdsForRebuild(deps.db, values.all ? { all: true } : { slugs: values.slug ?? [] });
    if (ids.missing.length > 0) {
      process.stderr.write(`No site with slug: ${ids.missing.join(', ')}\n`);
      exitCode = 1;
    }
    if (ids.siteIds.length > 0) {
      const bar = createProgressBar('Rebuilding');
      const result = await rebuildSites(deps, ids.siteIds, (p) => bar.update(p.done + p.failed, p.total, p.failed ? `(${p.failed} failed)` : ''));
      process.stdout.write(`Rebuilt ${result.done} of ${result.total} sites in ${(result.ms / 1000).toFixed(2)} s${result.failed ? `; ${result.failed} failed` : ''}\n`);
      if (result.failed > 0) exitCode = 1;
    } else if (values.all) {
      process.stdout.write('No sites to rebuild.\n');
    }
    if (values.all) {
      const sweep = await sweepTemplateAssetsNow(deps);
      process.stdout.write(describeSweep(sweep));
      if (sweep.failed.length > 0) exitCode = 1;
    }
    return exitCode;
  },
  { runBuilder: (config) => !config.redisUrl },
);

function describeSweep(sweep: TTemplateAssetSweepResult): string {
  const lines = sweep.removed.map((r) => `Removed template assets of version ${r.version}: ${r.files} files (${r.objects} objects).\n`);
  for (const w of sweep.waiting) lines.push(`Template assets of version ${w.version} are used by no page; removed after ${new Date(w.removableAt).toISOString()}.\n`);
  for (const f of sweep.failed) lines.push(`Could not remove template assets of version ${f.version} (the next sweep goes on): ${f.error}\n`);
  if (lines.length === 0) lines.push(`Template assets: nothing to remove (${sweep.versions} published versions, ${sweep.referenced.length || sweep.current.length} in use).\n`);
  return lines.join('');
}
