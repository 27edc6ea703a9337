/**
 * A small PDF writer for the demo documents: pages of text in the standard Helvetica faces
 * (WinAnsi, so 'Résumé' and '€' are real text a reader can select and search), filled boxes,
 * rules and JPEG pictures. A flowing layout (headings, paragraphs, bullets, rows) wraps text by
 * Helvetica's widths and starts new pages as needed. Deterministic: no dates or ids are written.
 */

export type TFont = 'regular' | 'bold' | 'italic';
export type TRgb = readonly [number, number, number];

export interface TJpeg {
  bytes: Uint8Array;
  pixelWidth: number;
  pixelHeight: number;
}

type TOp =
  | { op: 'text'; x: number; y: number; size: number; font: TFont; colour: TRgb; text: string }
  | { op: 'rect'; x: number; y: number; w: number; h: number; colour: TRgb }
  | { op: 'image'; x: number; y: number; w: number; h: number; image: number };

interface TPage {
  width: number;
  height: number;
  ops: TOp[];
}

const FONT_NAMES: Record<TFont, string> = { regular: 'Helvetica', bold: 'Helvetica-Bold', italic: 'Helvetica-Oblique' };
const FONT_KEYS: Record<TFont, string> = { regular: 'F1', bold: 'F2', italic: 'F3' };

/** Helvetica advance widths (per 1000 em) of printable ASCII, from the standard AFM. */
const HELVETICA = [
  278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667,
  722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556,
  278, 556, 556, 222, 222, 500, 222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];

/** The width of `text` in points; bold is about 6 % wider. */
export function textWidth(text: string, size: number, font: TFont = 'regular'): number {
  let units = 0;
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    units += code >= 32 && code < 127 ? (HELVETICA[code - 32] ?? 556) : 556;
  }
  return (units / 1000) * size * (font === 'bold' ? 1.06 : 1);
}

const WIN_ANSI: Record<string, number> = { '€': 0x80, '…': 0x85, '‘': 0x91, '’': 0x92, '“': 0x93, '”': 0x94, '•': 0x95, '–': 0x96, '—': 0x97, '™': 0x99 };

/** A PDF string literal in WinAnsi: escapes, and octal codes for everything past ASCII. */
function pdfString(text: string): string {
  let out = '(';
  for (const ch of text.normalize('NFC')) {
    const code = WIN_ANSI[ch] ?? ch.charCodeAt(0);
    if (ch === '\\' || ch === '(' || ch === ')') out += `\\${ch}`;
    else if (code >= 32 && code < 127) out += ch;
    else if (code < 256) out += `\\${code.toString(8).padStart(3, '0')}`;
    else out += '?';
  }
  return `${out})`;
}

const n = (v: number) => (Math.round(v * 100) / 100).toString();
const rgb = (c: TRgb) => `${n(c[0] / 255)} ${n(c[1] / 255)} ${n(c[2] / 255)}`;

/** Serialises pages (coordinates from the top left, in points) into PDF bytes. */
function writePdf(pages: TPage[], images: TJpeg[], title: string): Buffer {
  const objects: Buffer[] = [];
  const add = (body: string | Buffer) => {
    objects.push(typeof body === 'string' ? Buffer.from(body, 'latin1') : body);
    return objects.length;
  };
  const catalogId = add('');
  const pagesId = add('');
  const fontIds = (Object.keys(FONT_NAMES) as TFont[]).map((f) => add(`<< /Type /Font /Subtype /Type1 /BaseFont /${FONT_NAMES[f]} /Encoding /WinAnsiEncoding >>`));
  const imageIds = images.map((img) =>
    add(
      Buffer.concat([
        Buffer.from(
          `<< /Type /XObject /Subtype /Image /Width ${img.pixelWidth} /Height ${img.pixelHeight} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode /Length ${img.bytes.length} >>\nstream\n`,
          'latin1',
        ),
        Buffer.from(img.bytes),
        Buffer.from('\nendstream', 'latin1'),
      ]),
    ),
  );
  const fontRes = (Object.keys(FONT_KEYS) as TFont[]).map((f, i) => `/${FONT_KEYS[f]} ${fontIds[i]} 0 R`).join(' ');
  const imageRes = imageIds.map((id, i) => `/Im${i} ${id} 0 R`).join(' ');
  const pageIds: number[] = [];
  for (const page of pages) {
    let content = '';
    for (const op of page.ops) {
      if (op.op === 'rect') content += `${rgb(op.colour)} rg ${n(op.x)} ${n(page.height - op.y - op.h)} ${n(op.w)} ${n(op.h)} re f\n`;
      else if (op.op === 'image') content += `q ${n(op.w)} 0 0 ${n(op.h)} ${n(op.x)} ${n(page.height - op.y - op.h)} cm /Im${op.image} Do Q\n`;
      else content += `BT /${FONT_KEYS[op.font]} ${n(op.size)} Tf ${rgb(op.colour)} rg ${n(op.x)} ${n(page.height - op.y)} Td ${pdfString(op.text)} Tj ET\n`;
    }
    const contentId = add(`<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}endstream`);
    pageIds.push(
      add(
        `<< /Type /Page /Parent ${pagesId} 0 R /MediaBox [0 0 ${n(page.width)} ${n(page.height)}] /Resources << /Font << ${fontRes} >> /XObject << ${imageRes} >> >> /Contents ${contentId} 0 R >>`,
      ),
    );
  }
  objects[catalogId - 1] = Buffer.from(`<< /Type /Catalog /Pages ${pagesId} 0 R >>`, 'latin1');
  objects[pagesId - 1] = Buffer.from(`<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`, 'latin1');
  const infoId = add(`<< /Title ${pdfString(title)} /Producer (Dropsite demo samples) >>`);

  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let offset = chunks[0]?.length ?? 0;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(offset);
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`, 'latin1'), body, Buffer.from('\nendobj\n', 'latin1')]);
    chunks.push(chunk);
    offset += chunk.length;
  });
  let xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) xref += `${o.toString().padStart(10, '0')} 00000 n \n`;
  xref += `trailer\n<< /Size ${objects.length + 1} /Root ${catalogId} 0 R /Info ${infoId} 0 R >>\nstartxref\n${offset}\n%%EOF\n`;
  chunks.push(Buffer.from(xref, 'latin1'));
  return Buffer.concat(chunks);
}

export interface TDocStyle {
  /** Page size in points (A4 portrait by default). */
  width?: number;
  height?: number;
  margin?: number;
  accent?: TRgb;
  ink?: TRgb;
  muted?: TRgb;
  /** Page background, when not white. */
  paper?: TRgb;
}

/** A document laid out top to bottom: text flows and wraps, and a new page starts when one is full. */
export class PdfDocument {
  readonly width: number;
  readonly height: number;
  readonly margin: number;
  readonly accent: TRgb;
  readonly ink: TRgb;
  readonly muted: TRgb;
  readonly paper: TRgb | undefined;
  readonly #pages: TPage[] = [];
  readonly #images: TJpeg[] = [];
  readonly #title: string;
  /** Baseline cursor from the top of the current page. */
  y = 0;

  constructor(title: string, style: TDocStyle = {}) {
    this.#title = title;
    this.width = style.width ?? 595.28;
    this.height = style.height ?? 841.89;
    this.margin = style.margin ?? 56;
    this.accent = style.accent ?? [37, 99, 235];
    this.ink = style.ink ?? [23, 23, 28];
    this.muted = style.muted ?? [100, 106, 118];
    this.paper = style.paper;
    this.newPage();
  }

  get #page(): TPage {
    const page = this.#pages.at(-1);
    if (!page) throw new Error('no page');
    return page;
  }

  get contentWidth(): number {
    return this.width - this.margin * 2;
  }

  newPage(paper: TRgb | undefined = this.paper): this {
    this.#pages.push({ width: this.width, height: this.height, ops: [] });
    if (paper) this.rect(0, 0, this.width, this.height, paper);
    this.y = this.margin;
    return this;
  }

  /** Starts a new page when fewer than `needed` points are left. */
  ensure(needed: number): this {
    if (this.y + needed > this.height - this.margin) this.newPage();
    return this;
  }

  rect(x: number, y: number, w: number, h: number, colour: TRgb): this {
    this.#page.ops.push({ op: 'rect', x, y, w, h, colour });
    return this;
  }

  text(x: number, y: number, text: string, options: { size?: number; font?: TFont; colour?: TRgb } = {}): this {
    this.#page.ops.push({ op: 'text', x, y, text, size: options.size ?? 11, font: options.font ?? 'regular', colour: options.colour ?? this.ink });
    return this;
  }

  image(jpeg: TJpeg, x: number, y: number, w: number, h?: number): this {
    this.#images.push(jpeg);
    this.#page.ops.push({ op: 'image', x, y, w, h: h ?? (w * jpeg.pixelHeight) / jpeg.pixelWidth, image: this.#images.length - 1 });
    return this;
  }

  /** Lines of `text` no wider than `width`. */
  wrap(text: string, size: number, width: number, font: TFont = 'regular'): string[] {
    const lines: string[] = [];
    let line = '';
    for (const word of text.split(/\s+/).filter(Boolean)) {
      const next = line ? `${line} ${word}` : word;
      if (line && textWidth(next, size, font) > width) {
        lines.push(line);
        line = word;
      } else line = next;
    }
    if (line) lines.push(line);
    return lines;
  }

  /** Flowing text at the cursor; answers the height used. */
  paragraph(text: string, options: { size?: number; font?: TFont; colour?: TRgb; x?: number; width?: number; leading?: number; after?: number } = {}): this {
    const size = options.size ?? 11;
    const leading = options.leading ?? size * 1.45;
    const x = options.x ?? this.margin;
    const width = options.width ?? this.width - this.margin - x;
    for (const line of this.wrap(text, size, width, options.font)) {
      this.ensure(leading);
      this.y += leading;
      this.text(x, this.y - leading * 0.3, line, options);
    }
    this.y += options.after ?? size * 0.6;
    return this;
  }

  heading(text: string, size = 18): this {
    this.ensure(size * 3);
    this.y += size * 0.8;
    this.paragraph(text, { size, font: 'bold', leading: size * 1.25, after: size * 0.35 });
    return this;
  }

  /** A small accent-coloured label above a section. */
  eyebrow(text: string): this {
    this.ensure(40);
    this.y += 14;
    this.text(this.margin, this.y, text.toUpperCase(), { size: 8.5, font: 'bold', colour: this.accent });
    this.y += 4;
    return this;
  }

  bullets(items: readonly string[], size = 11): this {
    for (const item of items) {
      const lines = this.wrap(item, size, this.contentWidth - 16);
      this.ensure(size * 1.45 * lines.length);
      lines.forEach((line, i) => {
        this.y += size * 1.45;
        if (i === 0) this.text(this.margin + 2, this.y - size * 0.4, '•', { size, colour: this.accent });
        this.text(this.margin + 16, this.y - size * 0.4, line, { size });
      });
    }
    this.y += size * 0.6;
    return this;
  }

  /** Rows of cells at fixed column fractions; the first row as a header when `header` is set. */
  table(rows: readonly (readonly string[])[], columns: readonly number[], options: { header?: boolean; size?: number } = {}): this {
    const size = options.size ?? 10;
    rows.forEach((row, r) => {
      const isHeader = options.header === true && r === 0;
      const font: TFont = isHeader ? 'bold' : 'regular';
      const cells = row.map((cell, c) => this.wrap(cell, size, this.contentWidth * (columns[c] ?? 0.2) - 8, font));
      const lines = Math.max(1, ...cells.map((l) => l.length));
      const h = lines * size * 1.35 + 10;
      this.ensure(h);
      if (isHeader) this.rect(this.margin, this.y, this.contentWidth, h, [241, 243, 247]);
      else this.rect(this.margin, this.y + h - 0.6, this.contentWidth, 0.6, [222, 226, 232]);
      let x = this.margin + 6;
      cells.forEach((cellLines, c) => {
        cellLines.forEach((line, i) => {
          this.text(x, this.y + 5 + size * (i + 1) * 1.35 - size * 0.3, line, { size, font, colour: isHeader ? this.muted : this.ink });
        });
        x += this.contentWidth * (columns[c] ?? 0.2);
      });
      this.y += h;
    });
    this.y += 10;
    return this;
  }

  space(points: number): this {
    this.y += points;
    return this;
  }

  toBuffer(): Buffer {
    return writePdf(this.#pages, this.#images, this.#title);
  }
}
