/**
 * The flags of the operator commands on one site (takedown, restore-site): string flags that must
 * all be given, read like every ops command's (cli.ts).
 */
import { readCommandLine, failUsage } from './cli.ts';

/**
 * Reads the string flags `names`: --help prints the usage and exits 0; an unknown flag, or flags
 * that `complete` rejects, print it to stderr and exit 2.
 */
export function readSiteFlags<K extends string>(usage: string, names: readonly K[], complete: (values: Partial<Record<K, string>>) => boolean): Record<K, string> {
  const options: Record<string, { type: 'string' }> = {};
  for (const name of names) options[name] = { type: 'string' };
  const { values } = readCommandLine(usage, options);
  const flags: Partial<Record<K, string>> = {};
  for (const name of names) {
    const value = values[name];
    if (typeof value === 'string') flags[name] = value;
  }
  if (!complete(flags)) failUsage(usage);
  return flags as Record<K, string>;
}
