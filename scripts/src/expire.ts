/**
 * npm run expire [-- --grace-days N] [--dry-run]
 * Removes expired sites whose grace period (EXPIRED_SITE_GRACE_DAYS, default 7) has passed:
 * their stored objects first, then their rows. The API process does the same every
 * EXPIRED_SITE_SWEEP_MINUTES; this runs it now.
 */
import { parseArgs } from 'node:util';
import { createRuntime, loadConfig, sweepExpiredSites } from '@dropsite/control-api';

process.env.NODE_ENV ??= 'production';

const { values } = parseArgs({ options: { 'grace-days': { type: 'string' }, 'dry-run': { type: 'boolean', default: false } } });
const graceDays = values['grace-days'] === undefined ? undefined : Number(values['grace-days']);
if (graceDays !== undefined && (!Number.isFinite(graceDays) || graceDays < 0)) {
  process.stderr.write('Usage: npm run expire -- [--grace-days <days>] [--dry-run]\n');
  process.exit(2);
}

const config = loadConfig();
const runtime = await createRuntime({ ...config, logLevel: 'warn' }, { runBuilder: false });
let exitCode = 0;
try {
  const result = await sweepExpiredSites(runtime.deps, { ...(graceDays === undefined ? {} : { graceDays }), dryRun: values['dry-run'] });
  const verb = values['dry-run'] ? 'Would remove' : 'Removed';
  process.stdout.write(`${verb} ${result.removed.length} expired site(s)${result.removed.length ? `: ${result.removed.join(', ')}` : ''}\n`);
  if (result.failed.length > 0) {
    process.stderr.write(`Could not remove: ${result.failed.join(', ')}\n`);
    exitCode = 1;
  }
} finally {
  await runtime.close();
}
process.exit(exitCode);
