/**
 * npm run stats [-- --days N] [--json]
 * The service at a glance: sites by state, files and bytes, creators, and page views and downloads
 * per UTC day for the last N days (default 14) from the daily rollups. Opens the database alone.
 */
import { describeSiteState, readSiteStats, SITE_STATES, type TSiteStats } from '@dropsite/control-api';
import { formatBytes } from '@dropsite/shared';
import { readCommandLine, readNumberFlag, runWithDatabase } from './cli.ts';
import { formatTable } from './text-table.ts';

process.env.NODE_ENV ??= 'production';

const USAGE = `Usage: npm run stats [-- --days <N>] [--json]

Counts the sites by state, their files and bytes, the creators, and the page views and
downloads of every site per UTC day.

Options:
  --days <N>  Days of views to show, today included (1 to 366; default 14).
  --json      Print one JSON object instead of the tables.
  -h, --help  Show this help.
`;

const { values } = readCommandLine(USAGE, { days: { type: 'string' }, json: { type: 'boolean', default: false } });
const days = readNumberFlag(USAGE, 'days', values.days, { min: 1, max: 366, whole: true }) ?? 14;

await runWithDatabase(async ({ db }) => {
  const stats = await readSiteStats(db, { now: Date.now(), days });
  process.stdout.write(values.json ? `${JSON.stringify(stats, null, 2)}\n` : describeStats(stats));
  return 0;
});

function describeStats(stats: TSiteStats): string {
  const { sites, files, creators, traffic } = stats;
  const overview = formatTable(
    [
      ['Sites', String(sites.total)],
      ...SITE_STATES.map((state) => [`  ${describeSiteState(state)}`, String(sites[state])]),
      ['Files', String(files.count)],
      ['  originals', formatBytes(files.originalBytes)],
      ['  derived (accounts, as last counted)', formatBytes(files.derivedBytes)],
      ['Accounts', String(creators.accounts)],
      ['  verified', String(creators.verifiedAccounts)],
      ['Anonymous creators', String(creators.anonymousSessions)],
      ['  active (unclaimed, unexpired)', String(creators.activeAnonymousSessions)],
    ],
    [1],
  );
  const perDay = formatTable(
    [
      ['day (UTC)', 'views', 'downloads'],
      ...traffic.perDay.map((d) => [d.date, String(d.views), String(d.downloads)]),
      ['total', String(traffic.views), String(traffic.downloads)],
    ],
    [1, 2],
  );
  return `${overview}\nViews of the last ${traffic.days} day(s)\n${perDay}`;
}
