/** One row of `npm run faults`: a fault, what must stay true under it, and how a run of it came out. */
import type { TFaultStack } from './fault-stack.ts';

export interface TRowOutcome {
  pass: boolean;
  /** What was measured, for the table ("sha256 identical, 25.0 MiB, resumed on api-2 in 1.2 s"). */
  figures: string;
  /** Each expectation that did not hold, in words. */
  failures: string[];
  /** Numbers a test asserts on, by name. */
  measured: Record<string, number | string | boolean>;
}

export interface TFaultRow {
  name: string;
  /** What must be true, as the table prints it. */
  expectation: string;
  /** What is done to the stack, and how. */
  simulates: string;
  run(faults: TFaultStack, log: (line: string) => void): Promise<TRowOutcome>;
}

/** Collects failed expectations while a row runs. */
export function expectations() {
  const failures: string[] = [];
  return {
    failures,
    /** Records `message` when `holds` is false; answers `holds`. */
    check(holds: boolean, message: string): boolean {
      if (!holds) failures.push(message);
      return holds;
    },
    outcome(figures: string, measured: TRowOutcome['measured'] = {}): TRowOutcome {
      return { pass: failures.length === 0, figures, failures: [...failures], measured };
    },
  };
}

export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A stack process by role ('api-1', 'builder-2'), as the stack lists it now. */
export function processOf(faults: TFaultStack, role: string) {
  const found = faults.stack.processes.find((p) => p.role === role);
  if (!found) throw new Error(`no ${role} in the stack`);
  return found;
}

/** Kills a stack process with SIGKILL and waits for it to be gone. */
export async function kill9(faults: TFaultStack, role: string): Promise<void> {
  const { child } = processOf(faults, role);
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}
