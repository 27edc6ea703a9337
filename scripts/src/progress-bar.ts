/** A progress bar on stderr: redrawn in place on a terminal, a line per 10 % elsewhere (CI logs). */

/** "42s", "3m 05s" or "1h 02m". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

export function createProgressBar(label: string, stream: Pick<NodeJS.WriteStream, 'write' | 'isTTY'> = process.stderr, now: () => number = () => performance.now()) {
  const started = now();
  let lastDecile = -1;
  return {
    update(done: number, total: number, extra = ''): void {
      const ratio = total === 0 ? 1 : done / total;
      const width = 30;
      const filled = Math.round(ratio * width);
      const elapsed = (now() - started) / 1000;
      // The time left at the rate so far, once there is a rate to go by.
      const eta = done > 0 && done < total ? ` ETA ${formatDuration((elapsed / done) * (total - done))}` : '';
      const line = `${label} [${'█'.repeat(filled)}${'░'.repeat(width - filled)}] ${done}/${total} ${Math.round(ratio * 100)}% ${elapsed.toFixed(1)}s${eta}${extra ? ` ${extra}` : ''}`;
      if (stream.isTTY) {
        stream.write(`\r${line}\x1b[K`);
        if (done >= total) stream.write('\n');
      } else {
        const decile = Math.floor(ratio * 10);
        if (decile !== lastDecile) {
          lastDecile = decile;
          stream.write(`${line}\n`);
        }
      }
    },
  };
}
