/** A progress bar on stderr: redrawn in place on a terminal, a line per 10 % elsewhere (CI logs). */

export function createProgressBar(label: string, stream: NodeJS.WriteStream = process.stderr) {
  const started = performance.now();
  let lastDecile = -1;
  return {
    update(done: number, total: number, extra = ''): void {
      const ratio = total === 0 ? 1 : done / total;
      const width = 30;
      const filled = Math.round(ratio * width);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const line = `${label} [${'█'.repeat(filled)}${'░'.repeat(width - filled)}] ${done}/${total} ${Math.round(ratio * 100)}% ${seconds}s${extra ? ` ${extra}` : ''}`;
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
