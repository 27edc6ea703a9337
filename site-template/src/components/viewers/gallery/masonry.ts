/**
 * Where each picture of a masonry gallery goes, computed from the pictures' known sizes (the same
 * on the server and in the browser, so nothing moves when the island hydrates). Each picture in
 * turn takes the shortest column, so a picture never starts above the one before it: the wall
 * reads row by row, in the order the lightbox counts. Heights are in grid rows of 1/40 of a
 * column's width (gallery.css sizes the rows from the gallery's width), with two rows between
 * pictures.
 */

/** Grid rows per column width: a square picture spans this many. */
export const MASONRY_ROWS_PER_WIDTH = 40;
/** Empty grid rows between two pictures of a column. */
export const MASONRY_GAP_ROWS = 2;
/** Columns of the masonry on a phone and on a wider screen (gallery.css switches at 768 px). */
export const MASONRY_COLUMNS = [2, 3] as const;

/** Very tall or very wide pictures are cropped to this height-to-width range, so no tile is a sliver. */
const MIN_ASPECT = 0.4;
const MAX_ASPECT = 2.5;

export interface TMasonryPlace {
  /** 1-based grid column. */
  column: number;
  /** 1-based grid row line where the picture starts. */
  row: number;
  /** Grid rows the picture spans. */
  span: number;
}

export function placeMasonry(sizes: ReadonlyArray<{ width: number; height: number }>, columns: number): TMasonryPlace[] {
  const nextRow = Array.from({ length: columns }, () => 1);
  return sizes.map(({ width, height }) => {
    const aspect = width > 0 && height > 0 ? Math.min(MAX_ASPECT, Math.max(MIN_ASPECT, height / width)) : 1;
    const span = Math.round(aspect * MASONRY_ROWS_PER_WIDTH);
    // The shortest column; the leftmost of equals.
    let column = 0;
    for (let c = 1; c < columns; c++) if ((nextRow[c] ?? 0) < (nextRow[column] ?? 0)) column = c;
    const row = nextRow[column] ?? 1;
    nextRow[column] = row + span + MASONRY_GAP_ROWS;
    return { column: column + 1, row, span };
  });
}
