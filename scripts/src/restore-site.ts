/**
 * npm run restore-site -- --slug <slug>
 * Undoes a takedown: the site is served again as it was, and its takedown record is cleared.
 */
import { parseArgs } from 'node:util';
import { createRuntime, loadConfig, restoreSite } from '@dropsite/control-api';

process.env.NODE_ENV ??= 'production';

const USAGE = `Usage: npm run restore-site -- --slug <slug>

Serves a site taken down with npm run takedown again, as it was.
`;

const { values } = parseArgs({ options: { slug: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } } });
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
if (!values.slug) {
  process.stderr.write(USAGE);
  process.exit(2);
}

const config = loadConfig();
const runtime = await createRuntime({ ...config, logLevel: 'warn' }, { runBuilder: false });
let exitCode = 0;
try {
  const restored = await restoreSite(runtime.deps, values.slug);
  if (restored) process.stdout.write(`Restored ${values.slug}: ${config.publicUrl}/${values.slug} is served again.\n`);
  else {
    process.stderr.write(`No taken-down site with slug: ${values.slug}\n`);
    exitCode = 1;
  }
} finally {
  await runtime.close();
}
process.exit(exitCode);
