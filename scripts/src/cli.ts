/**
 * What every ops command shares: its usage text, printed by --help / -h (stdout, exit 0) and after
 * a call it cannot take (an unknown flag, a missing or bad value: stderr, exit 2); and running the
 * command on the configured runtime or database, closed before the process exits with the
 * command's code.
 */
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { createDatabase, createRuntime, keepDataPrivate, listMigrationStates, loadConfig, type TAppDeps, type TConfig, type TDatabaseHandle } from '@dropsite/control-api';

const HELP_OPTION = { help: { type: 'boolean', short: 'h', default: false } } as const;

type TCommandLine<O extends ParseArgsOptionsConfig> = ReturnType<typeof parseArgs<{ options: O & typeof HELP_OPTION; allowPositionals: true; strict: true }>>;

/**
 * Reads the command line against `options` (plus --help / -h). Positional arguments are refused
 * unless `positionals` allows them.
 */
export function readCommandLine<const O extends ParseArgsOptionsConfig>(usage: string, options: O, config: { positionals?: boolean } = {}): TCommandLine<O> {
  let parsed: TCommandLine<O>;
  try {
    parsed = parseArgs({ options: { ...options, ...HELP_OPTION }, allowPositionals: true, strict: true }) as TCommandLine<O>;
  } catch (err) {
    return failUsage(usage, err instanceof Error ? err.message : String(err));
  }
  if ('help' in parsed.values && parsed.values.help === true) {
    process.stdout.write(usage);
    process.exit(0);
  }
  if (!config.positionals && parsed.positionals.length > 0) failUsage(usage, `Unexpected argument: ${parsed.positionals.join(' ')}`);
  return parsed;
}

/** Prints what was wrong (if given) and the usage to stderr, and exits 2. */
export function failUsage(usage: string, problem?: string): never {
  process.stderr.write(problem ? `${problem}\n\n${usage}` : usage);
  process.exit(2);
}

/**
 * The number in `flag`'s text, within [min, max] (and whole when `whole`); undefined when the flag
 * was not given. Anything else fails with the usage.
 */
export function readNumberFlag(usage: string, flag: string, text: string | undefined, range: { min: number; max: number; whole?: boolean }): number | undefined {
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  const value = /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : Number.NaN;
  if (!(value >= range.min && value <= range.max) || (range.whole && !Number.isInteger(value))) {
    failUsage(usage, `--${flag} takes ${range.whole ? 'a whole number' : 'a number'} from ${range.min} to ${range.max}, not: ${text}`);
  }
  return value;
}

/**
 * Runs `command` on a runtime of the configured database, storage and queue (building in this
 * process when `runBuilder` says so), closes it, and exits with the code the command answers.
 */
export async function runWithRuntime(command: (deps: TAppDeps, config: TConfig) => Promise<number>, options: { runBuilder?: (config: TConfig) => boolean } = {}): Promise<never> {
  const config = loadConfig();
  keepDataPrivate(config);
  const runtime = await createRuntime({ ...config, logLevel: 'warn' }, { runBuilder: options.runBuilder?.(config) ?? false });
  let exitCode = 0;
  try {
    exitCode = await command(runtime.deps, config);
  } finally {
    await runtime.close();
  }
  process.exit(exitCode);
}

/**
 * Runs `command` on the configured database alone (no storage, queue or builder), closes it, and
 * exits with the code the command answers; a failure is printed and exits 1. Unless `migrating`,
 * a database with pending migrations is refused (exit 1): the reports read the current schema and
 * never change it.
 */
export async function runWithDatabase(command: (database: TDatabaseHandle, config: TConfig) => Promise<number>, options: { migrating?: boolean } = {}): Promise<never> {
  let exitCode = 1;
  try {
    const config = loadConfig();
    keepDataPrivate(config);
    const database = await createDatabase(config.databaseUrl);
    try {
      const pending = options.migrating ? 0 : (await listMigrationStates(database.db)).filter((m) => m.appliedAt === null).length;
      if (pending > 0) process.stderr.write(`The database has ${pending} pending migration(s): run npm run migrate -- up first.\n`);
      else exitCode = await command(database, config);
    } finally {
      await database.close();
    }
  } catch (err) {
    process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
    exitCode = 1;
  }
  process.exit(exitCode);
}
