/**
 * npm run faults: starts a stack of its own (as `npm run stack` does: nginx, two APIs, two builders,
 * PostgreSQL, Redis, an S3 store; its own schema, queue and objects, discarded at the end), injects
 * each fault of scripts/src/faults/rows.ts into it in turn, and prints a table: fault, expectation,
 * outcome (PASS or FAIL, with the figures measured). Exits 1 when any row fails.
 *
 * PostgreSQL and Redis are reached through TCP proxies this command controls, so cutting them never
 * touches the machine's servers, which other runs share. See docs/operations.md, "Faults".
 */
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { isPostgresUp, isRedisUp } from '@dropsite/testkit/control-api/services';
import { startFaultStack } from './faults/fault-stack.ts';
import { FAULT_ROWS } from './faults/rows.ts';
import type { TRowOutcome } from './faults/row.ts';
import { formatTable } from '@dropsite/scripts/text-table';

const USAGE = `Usage: npm run faults [-- --only <name>]

Starts a stack of its own (nginx, two API processes, two builders, PostgreSQL, Redis, an S3 store),
injects each fault below into it and prints fault | expectation | outcome. Exits 1 if any row fails.

  --only <name>  run one row
  --help, -h     this text

Rows:
${FAULT_ROWS.map((row) => `  ${row.name.padEnd(28)} ${row.expectation}`).join('\n')}

Environment: STACK_DATABASE_URL (postgres://postgres@127.0.0.1:5432/test), STACK_REDIS_URL
(redis://127.0.0.1:6379), NGINX_BIN (/usr/sbin/nginx).
`;

let values: { only?: string; help?: boolean };
try {
  ({ values } = parseArgs({ options: { only: { type: 'string' }, help: { type: 'boolean', short: 'h', default: false } } }));
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
  process.exit(2);
}
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
const rows = values.only === undefined ? FAULT_ROWS : FAULT_ROWS.filter((row) => row.name === values.only);
if (rows.length === 0) {
  process.stderr.write(`No row named ${JSON.stringify(values.only)}.\n\n${USAGE}`);
  process.exit(2);
}

const postgresUrl = process.env.STACK_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.STACK_REDIS_URL ?? 'redis://127.0.0.1:6379';
const nginx = process.env.NGINX_BIN ?? '/usr/sbin/nginx';
const missing = [
  ...(existsSync(nginx) ? [] : [`nginx (${nginx})`]),
  ...((await isPostgresUp(postgresUrl)) ? [] : [`PostgreSQL (${postgresUrl})`]),
  ...((await isRedisUp(redisUrl)) ? [] : [`Redis (${redisUrl})`]),
];
if (missing.length > 0) {
  process.stderr.write(`npm run faults needs ${missing.join(', ')}: not reachable.\n`);
  process.exit(1);
}

const log = (line: string) => process.stdout.write(`${line}\n`);
const startedAt = Date.now();
log('Starting the fault stack (nginx, 2 APIs, 2 builders, PostgreSQL and Redis through proxies, S3 store)…');
const faults = await startFaultStack({ postgresUrl, redisUrl, name: 'faults', log });
log(
  `  edge ${faults.stack.url}, APIs ${faults.stack.apiUrls.join(' ')}, store on ${faults.store.filesystem === 'tmpfs' ? 'a tmpfs of its own' : 'an ordinary folder (full disk simulated)'}`,
);

const results: Array<{ name: string; expectation: string; outcome: TRowOutcome }> = [];
let interrupted = false;
process.on('SIGINT', () => {
  interrupted = true;
});
try {
  for (const row of rows) {
    if (interrupted) break;
    log(`\n▶ ${row.name}: ${row.simulates}`);
    const rowStarted = performance.now();
    let outcome: TRowOutcome;
    try {
      outcome = await row.run(faults, log);
    } catch (error) {
      outcome = { pass: false, figures: '', failures: [`the row could not run: ${error instanceof Error ? error.message : String(error)}`], measured: {} };
    }
    log(`  ${outcome.pass ? 'PASS' : 'FAIL'} in ${((performance.now() - rowStarted) / 1000).toFixed(1)} s: ${outcome.figures}`);
    for (const failure of outcome.failures) log(`  ✗ ${failure}`);
    results.push({ name: row.name, expectation: row.expectation, outcome });
  }
} finally {
  log('\nDiscarding the fault stack…');
  await faults.discard();
}

const table = formatTable([
  ['fault', 'expectation', 'outcome'],
  ...results.map(({ name, expectation, outcome }) => [
    name,
    expectation,
    `${outcome.pass ? 'PASS' : 'FAIL'}: ${[...outcome.failures, outcome.figures].filter(Boolean).join('; ')}`,
  ]),
]);
log(`\n${table}`);
const failed = results.filter((r) => !r.outcome.pass).length;
log(`${results.length - failed} of ${results.length} rows passed in ${((Date.now() - startedAt) / 1000).toFixed(0)} s (${new Date(startedAt).toISOString()}).`);
process.exit(failed > 0 || results.length < rows.length ? 1 : 0);
