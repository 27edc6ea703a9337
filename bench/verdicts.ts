/**
 * A benchmark's targets, each judged PASS or MISS beside the yardstick it is measured against. Each
 * verdict is returned for the script's own table and, when `npm run bench` runs the script (it sets
 * BENCH_VERDICTS to a file), also recorded there, so the run ends with one table of every target.
 * Kept free of the API's code: the peer servers of bench/upload.ts load it too.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface TVerdict {
  /** What is measured, e.g. "CPU a site". */
  name: string;
  /** The figure measured in this run, with its unit. */
  measured: string;
  /** The target, e.g. "at most 8 ms". */
  target: string;
  /** What the figure was measured against in the same run, when the target is a ratio or a share. */
  yardstick?: string;
  pass: boolean;
}

interface TRecordedVerdict extends TVerdict {
  bench: string;
}

/** Records the verdict (under npm run bench) and answers "PASS" or "MISS" for the script's own figures. */
export function judge(verdict: TVerdict): 'PASS' | 'MISS' {
  const file = process.env.BENCH_VERDICTS;
  if (file) {
    const recorded: TRecordedVerdict = { bench: path.basename(process.argv[1] ?? 'bench'), ...verdict };
    appendFileSync(file, `${JSON.stringify(recorded)}\n`);
  }
  return verdict.pass ? 'PASS' : 'MISS';
}

/** The verdicts recorded in `file`, one line each, in the order the scripts judged them. */
export function readVerdicts(file: string): TRecordedVerdict[] {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as TRecordedVerdict);
}

/** The table `npm run bench` ends with: one line per target, its verdict, figure, target and yardstick. */
export function formatVerdicts(verdicts: readonly TRecordedVerdict[]): string {
  if (verdicts.length === 0) return 'no targets were judged\n';
  const rows = verdicts.map((v) => [v.pass ? 'PASS' : 'MISS', v.bench, v.name, v.measured, v.target, v.yardstick ?? '']);
  const head = ['', 'bench', 'target', 'measured', 'needed', 'yardstick (same run)'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `${cells.map((c, i) => c.padEnd(widths[i]!)).join('  ')}`.trimEnd();
  const passed = verdicts.filter((v) => v.pass).length;
  return `${[line(head), ...rows.map(line)].join('\n')}\n${passed} of ${verdicts.length} targets PASS\n`;
}
