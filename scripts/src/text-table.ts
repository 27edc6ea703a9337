/** Plain-text output of the report commands (stats, sites, migrate): aligned columns and times. */

/**
 * Rows as lines of columns two spaces apart, each as wide as its widest cell. Columns whose index
 * is in `right` are aligned right (numbers); the last column is not padded.
 */
export function formatTable(rows: readonly (readonly string[])[], right: readonly number[] = []): string {
  const widths: number[] = [];
  for (const row of rows) {
    for (const [i, cell] of row.entries()) widths[i] = Math.max(widths[i] ?? 0, cell.length);
  }
  return rows
    .map((row) =>
      row
        .map((cell, i) => {
          const width = widths[i] ?? 0;
          if (right.includes(i)) return cell.padStart(width);
          return i === row.length - 1 ? cell : cell.padEnd(width);
        })
        .join('  ')
        .trimEnd(),
    )
    .map((line) => `${line}\n`)
    .join('');
}

/** An instant as "2026-11-22 12:00 UTC". */
export function formatTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
