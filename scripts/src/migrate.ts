/**
 * npm run migrate -- status | up
 * The database schema's migrations: `status` lists each one, applied (and when) or pending;
 * `up` applies the pending ones and names those that ran. Opens the configured database alone
 * (no storage, queue or builder). The API and the other commands also migrate on start.
 */
import { applyPendingMigrations, listMigrationStates } from '@dropsite/control-api';
import { failUsage, readCommandLine, runWithDatabase } from './cli.ts';
import { formatTable, formatTime } from './text-table.ts';

process.env.NODE_ENV ??= 'production';

const USAGE = `Usage: npm run migrate -- status | up

The migrations of the database's schema (DATABASE_URL; SQLite under DATA_DIR by default).

Commands:
  status      List every migration, applied (and when) or pending, and how many are pending.
  up          Apply the pending migrations and name those that ran.

Options:
  -h, --help  Show this help.
`;

const { positionals } = readCommandLine(USAGE, {}, { positionals: true });
const [action, ...extra] = positionals;
if (action !== 'status' && action !== 'up') failUsage(USAGE, action === undefined ? 'Say status or up.' : `Unknown command: ${action}`);
if (extra.length > 0) failUsage(USAGE, `Unexpected argument: ${extra.join(' ')}`);

await runWithDatabase(
  async ({ db }) => {
    if (action === 'up') {
      const ran = await applyPendingMigrations(db);
      if (ran.length === 0) process.stdout.write('Already up to date.\n');
      else process.stdout.write(`${ran.map((name) => `Applied ${name}\n`).join('')}Applied ${ran.length} migration(s).\n`);
      return 0;
    }
    const states = await listMigrationStates(db);
    const pending = states.filter((m) => m.appliedAt === null).length;
    const rows = states.map((m) => [m.appliedAt === null ? 'pending' : 'applied', m.appliedAt === null ? '' : formatTime(m.appliedAt), m.name]);
    process.stdout.write(formatTable([['state', 'applied at', 'migration'], ...rows]));
    process.stdout.write(`${states.length} migrations, ${pending} pending.\n`);
    return 0;
  },
  { migrating: true },
);
