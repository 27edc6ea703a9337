/**
 * npm run takedown -- --slug <slug> --reason "<why>"
 * Takes a site down at once: /{slug} answers 451 with a short notice, its files and engagement
 * calls 404, and the time and reason are recorded on the site. `npm run restore-site` undoes it.
 */
import { takeDownSite } from '@dropsite/control-api';
import { runWithRuntime } from './cli.ts';
import { readSiteFlags } from './site-command.ts';

process.env.NODE_ENV ??= 'production';

const USAGE = `Usage: npm run takedown -- --slug <slug> --reason "<why>"

Takes the site down at once: its page answers 451 with a short notice, its files and
engagement are unreachable, and the time and reason are recorded. Undo with
npm run restore-site -- --slug <slug>.

Options:
  --slug <slug>     The site, as in its address (PUBLIC_URL/<slug>).
  --reason "<why>"  Why it is taken down; recorded on the site.
  -h, --help        Show this help.
`;

const { slug, reason } = readSiteFlags(USAGE, ['slug', 'reason'], (values) => Boolean(values.slug && values.reason?.trim()));

await runWithRuntime(async (deps, config) => {
  const taken = await takeDownSite(deps, slug, reason);
  if (taken) {
    process.stdout.write(`Took down ${slug}: ${config.publicUrl}/${slug} now answers 451.\n`);
    return 0;
  }
  process.stderr.write(`No live site with slug: ${slug}\n`);
  return 1;
});
