/** The API as its own process (control-api/src/main.ts), for tests that kill or signal it. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const MAIN = path.join(path.dirname(createRequire(import.meta.url).resolve('@dropsite/control-api/package.json')), 'src/main.ts');

export interface TApiProcess {
  child: ChildProcess;
  /** Where it listens, as 127.0.0.1. */
  url: string;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
}

/** Starts main.ts on `dataDir` with `env` over the test defaults (a free port, NODE_ENV=test, no demo sites); resolves once it listens. */
export async function startApiProcess(dataDir: string, env: Record<string, string> = {}): Promise<TApiProcess> {
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', NODE_ENV: 'test', DEMO_SITES: 'false', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (data: Buffer) => {
      output += data.toString();
      const match = /running at (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1]!.replace('localhost', '127.0.0.1'));
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`API exited (${code}) before listening:\n${output}`)));
  });
  return { child, url, output: () => output };
}
