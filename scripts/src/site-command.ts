/**
 * What the operator commands on one site (takedown, restore-site) share: their flags and usage text,
 * and a runtime without the builder that is closed before the process exits with the command's code.
 */
import { parseArgs } from 'node:util';
import { createRuntime, loadConfig, type TAppDeps, type TConfig } from '@dropsite/control-api';

/**
 * Reads the string flags `names`: --help prints the usage and exits 0; flags that `complete` rejects
 * print it to stderr and exit 2.
 */
export function readSiteFlags<K extends string>(usage: string, names: readonly K[], complete: (values: Partial<Record<K, string>>) => boolean): Record<K, string> {
  const options: Record<string, { type: 'string' } | { type: 'boolean'; short: string; default: boolean }> = { help: { type: 'boolean', short: 'h', default: false } };
  for (const name of names) options[name] = { type: 'string' };
  const { values } = parseArgs({ options });
  if (values.help) {
    process.stdout.write(usage);
    process.exit(0);
  }
  const flags = values as Partial<Record<K, string>>;
  if (!complete(flags)) {
    process.stderr.write(usage);
    process.exit(2);
  }
  return flags as Record<K, string>;
}

/** Runs `command` on the configured database and storage, closes the runtime, and exits with the code it answers. */
export async function runSiteCommand(command: (deps: TAppDeps, config: TConfig) => Promise<number>): Promise<never> {
  const config = loadConfig();
  const runtime = await createRuntime({ ...config, logLevel: 'warn' }, { runBuilder: false });
  let exitCode = 0;
  try {
    exitCode = await command(runtime.deps, config);
  } finally {
    await runtime.close();
  }
  process.exit(exitCode);
}
