/**
 * npm run usage:recount
 * Recounts every creator's usage (storage of their files, originals and derived; active sites;
 * collaborators) from storage and the database, writes it to this month's usage rows, and reports
 * every creator whose stored usage had drifted from the count. Exit code 0 either way: drift is
 * corrected, not an error; 1 only when the recount itself failed.
 */
import { recountUsage } from '@dropsite/control-api';
import { readCommandLine, runWithRuntime } from './cli.ts';

process.env.NODE_ENV ??= 'production';

const USAGE = `Usage: npm run usage:recount

Recounts every creator's usage (storage of their files, originals and derived; active sites;
collaborators) from storage and the database, corrects this month's usage rows, and lists the
creators whose stored usage had drifted. Exits 0 either way; 1 only when the recount failed.

Options:
  -h, --help  Show this help.
`;

readCommandLine(USAGE, {});

await runWithRuntime(async (deps) => {
  try {
    const { creators, drift } = await recountUsage(deps);
    process.stdout.write(`Recounted the usage of ${creators} creator(s); ${drift.length} had drifted.\n`);
    for (const d of drift) {
      const was = d.stored ? `${d.stored.storageUsed} bytes, ${d.stored.projects} site(s)` : 'no row this month';
      process.stdout.write(`  ${d.creatorId}: was ${was}; now ${d.counted.storageUsed} bytes, ${d.counted.projects} site(s)\n`);
    }
    return 0;
  } catch (err) {
    process.stderr.write(`Recount failed: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
});
