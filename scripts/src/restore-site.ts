/**
 * npm run restore-site -- --slug <slug>
 * Undoes a takedown: the site is served again as it was, and its takedown record is cleared.
 */
import { restoreSite } from '@dropsite/control-api';
import { readSiteFlags, runSiteCommand } from './site-command.ts';

process.env.NODE_ENV ??= 'production';

const USAGE = `Usage: npm run restore-site -- --slug <slug>

Serves a site taken down with npm run takedown again, as it was.
`;

const { slug } = readSiteFlags(USAGE, ['slug'], (values) => Boolean(values.slug));

await runSiteCommand(async (deps, config) => {
  const restored = await restoreSite(deps, slug);
  if (restored) {
    process.stdout.write(`Restored ${slug}: ${config.publicUrl}/${slug} is served again.\n`);
    return 0;
  }
  process.stderr.write(`No taken-down site with slug: ${slug}\n`);
  return 1;
});
