/**
 * npm run takedown -- --slug <slug> --reason "<why>"
 * Takes a site down at once: /{slug} answers 451 with a short notice, its files and engagement
 * calls 404, and the time and reason are recorded on the site. `npm run restore-site` undoes it.
 */
import { parseArgs } from 'node:util';
import { createRuntime, loadConfig, takeDownSite } from '@dropsite/control-api';

process.env.NODE_ENV ??= 'production';

const USAGE = `Usage: npm run takedown -- --slug <slug> --reason "<why>"

Takes the site down at once: its page answers 451 with a short notice, its files and
engagement are unreachable, and the time and reason are recorded. Undo with
npm run restore-site -- --slug <slug>.
`;

const { values } = parseArgs({ options: { slug: { type: 'string' }, reason: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } } });
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
if (!values.slug || !values.reason?.trim()) {
  process.stderr.write(USAGE);
  process.exit(2);
}

const config = loadConfig();
const runtime = await createRuntime({ ...config, logLevel: 'warn' }, { runBuilder: false });
let exitCode = 0;
try {
  const taken = await takeDownSite(runtime.deps, values.slug, values.reason);
  if (taken) process.stdout.write(`Took down ${values.slug}: ${config.publicUrl}/${values.slug} now answers 451.\n`);
  else {
    process.stderr.write(`No live site with slug: ${values.slug}\n`);
    exitCode = 1;
  }
} finally {
  await runtime.close();
}
process.exit(exitCode);
