/**
 * Runs an external tool (ffprobe, ffmpeg, soffice) without a shell, with a hard time limit and
 * bounded output, so a hostile input can neither inject arguments nor hang or flood a build.
 */
import { spawn } from 'node:child_process';

export interface TRunOptions {
  timeoutMs: number;
  /** Stdout beyond this many bytes kills the process. */
  maxStdoutBytes?: number;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /**
   * Start the tool in its own process group and kill the whole group on timeout: soffice
   * forks soffice.bin, which would outlive a kill of the wrapper alone.
   */
  killGroup?: boolean;
}

export interface TRunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  /** The tail of stderr (at most 16 KB), for logs. */
  stderr: string;
}

/** The tool is not installed (spawn answered ENOENT). */
export class ToolMissingError extends Error {
  readonly tool: string;
  constructor(tool: string) {
    super(`${tool} is not installed`);
    this.name = 'ToolMissingError';
    this.tool = tool;
  }
}

export class ToolTimeoutError extends Error {
  constructor(tool: string, ms: number) {
    super(`${tool} did not finish within ${Math.round(ms / 1000)} s`);
    this.name = 'ToolTimeoutError';
  }
}

const STDERR_TAIL_BYTES = 16 * 1024;

export function runProcess(command: string, args: readonly string[], options: TRunOptions): Promise<TRunResult> {
  const maxStdout = options.maxStdoutBytes ?? 64 * 1024 * 1024;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      shell: false,
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd: options.cwd,
      env: options.env ?? process.env,
      detached: options.killGroup === true,
      windowsHide: true,
    });
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = Buffer.alloc(0);
    let failure: Error | null = null;
    let settled = false;

    const kill = () => {
      try {
        if (options.killGroup && child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => {
      failure = new ToolTimeoutError(command, options.timeoutMs);
      kill();
    }, options.timeoutMs);

    child.stdout.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > maxStdout) {
        failure ??= new Error(`${command} wrote more than ${maxStdout} bytes`);
        kill();
        return;
      }
      stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = Buffer.concat([stderr, chunk]);
      if (stderr.length > STDERR_TAIL_BYTES) stderr = stderr.subarray(stderr.length - STDERR_TAIL_BYTES);
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(error.code === 'ENOENT' ? new ToolMissingError(command) : error);
    });
    child.on('close', (code, signal) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (options.killGroup) kill(); // leftovers of the group (soffice.bin) go too
      if (failure) reject(failure);
      else resolve({ code, signal, stdout: Buffer.concat(stdout), stderr: stderr.toString('utf8') });
    });
  });
}
