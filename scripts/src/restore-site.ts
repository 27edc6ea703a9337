/**
 * npm run restore-site -- --slug <slug>
 * Undoes a takedown: the site is served again as it was, and its takedown record is cleared.
 */
import { restoreSite } from '@dropsite/control-api';
import { runWithRuntime } from './cli.ts';
import { readSiteFlags } from './site-command.ts';

process.env.NODE_ENV ??= 'production';

const USAGE = `Usage: npm run restore-site -- --slug <slug>

Serves a site taken down with npm run takedown again, as it was.

Options:
  --slug <slug>  The site, as in its address (PUBLIC_URL/<slug>).
  -h, --help     Show this help.
`;

const { slug } = readSiteFlags(USAGE, ['slug'], (values) => Boolean(values.slug));

await runWithRuntime(async (deps, config) => {
  const restored = await restoreSite(deps, slug);
  if (restored) {
    process.stdout.write(`Restored ${slug}: ${config.publicUrl}/${slug} is served again.\n`);
    return 0;
  }
  process.stderr.write(`No taken-down site with slug: ${slug}\n`);
  return 1;
});
