/**
 * npm run expire [-- --grace-days N] [--dry-run]
 * Removes expired sites whose grace period (EXPIRED_SITE_GRACE_DAYS, default 7) has passed:
 * their stored objects first, then their rows. The API process does the same every
 * EXPIRED_SITE_SWEEP_MINUTES; this runs it now.
 */
import { sweepExpiredSites } from '@dropsite/control-api';
import { readCommandLine, readNumberFlag, runWithRuntime } from './cli.ts';

process.env.NODE_ENV ??= 'production';

const USAGE = `Usage: npm run expire [-- --grace-days <days>] [--dry-run]

Removes the expired sites whose grace period has passed: their stored objects first, then
their rows. The API process does the same every EXPIRED_SITE_SWEEP_MINUTES.

Options:
  --grace-days <days>  Days after the expiry a site is kept (default EXPIRED_SITE_GRACE_DAYS, 7).
  --dry-run            List the sites that would be removed; remove nothing.
  -h, --help           Show this help.
`;

const { values } = readCommandLine(USAGE, { 'grace-days': { type: 'string' }, 'dry-run': { type: 'boolean', default: false } });
const graceDays = readNumberFlag(USAGE, 'grace-days', values['grace-days'], { min: 0, max: 3650 });

await runWithRuntime(async (deps) => {
  const result = await sweepExpiredSites(deps, { ...(graceDays === undefined ? {} : { graceDays }), dryRun: values['dry-run'] });
  const verb = values['dry-run'] ? 'Would remove' : 'Removed';
  process.stdout.write(`${verb} ${result.removed.length} expired site(s)${result.removed.length ? `: ${result.removed.join(', ')}` : ''}\n`);
  if (result.failed.length > 0) {
    process.stderr.write(`Could not remove: ${result.failed.join(', ')}\n`);
    return 1;
  }
  return 0;
});
