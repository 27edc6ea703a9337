/** CSV for the exports creators open in a spreadsheet (engagement, the audit log). */

const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV cell: quoted, quotes doubled, and a leading formula character defused (a spreadsheet would run it). */
export function csvCell(value: string | number): string {
  const text = String(value);
  const safe = typeof value === 'string' && FORMULA_START.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}
