/**
 * The demo sites at start-up: the API process runs `npm run seed-demo` (scripts/src/seed-demo.ts)
 * as a child process in the background, so a fresh install, a new template build or a changed
 * sample project has its demos without anyone running a command. The seed itself is quick when
 * every demo is current (it reads one row per demo and returns); otherwise it makes the samples and
 * builds the demos while the API already serves. A child process, not this one: drawing the sample
 * pictures takes memory the API process should not keep. DEMO_SITES=false turns it off.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from './logger.ts';

const SEED_SCRIPT = path.resolve(import.meta.dirname, '../../scripts/src/seed-demo.ts');

/** Starts the seed in the background; `stop` ends it (at shutdown). */
export function startDemoSitesSeed(log: Logger, script = SEED_SCRIPT): { stop: () => void } {
  if (!existsSync(script)) {
    log.warn({ script }, 'demo sites: the seed script is missing, so the demo sites are not built');
    return { stop: () => {} };
  }
  let stopping = false;
  // Same environment, so the same database, storage and queue as this process.
  const child = spawn(process.execPath, [script, '--quiet'], { stdio: ['ignore', 'inherit', 'inherit'], env: process.env });
  child.on('error', (err) => log.warn({ err }, 'demo sites: could not start the seed'));
  child.on('exit', (code, signal) => {
    if (code === 0) log.info('demo sites are up to date');
    else if (!stopping) log.warn({ code, signal }, 'demo sites: the seed failed (run npm run seed-demo to see why)');
  });
  return {
    stop: () => {
      stopping = true;
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    },
  };
}
