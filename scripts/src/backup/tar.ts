/**
 * The tar format of backup archives, written and read as streams (POSIX ustar, with a pax header
 * for a name over 100 bytes or a file of 8 GiB or more), so `tar -tzf` lists an archive and
 * `tar -xzf` unpacks one by hand. Only what backups need: regular files, written one after the
 * other with their size known before their bytes; reading refuses links and devices.
 */

const BLOCK = 512;
const ZERO_BLOCK = Buffer.alloc(BLOCK);
/** The largest size a ustar header holds (11 octal digits); larger files carry a pax `size`. */
const USTAR_MAX_SIZE = 8 ** 11 - 1;
/** A pax header is a few names and numbers: anything much larger is not one of ours. */
const PAX_MAX_BYTES = 64 * 1024;

export interface TTarFile {
  /** Path inside the archive, '/'-separated. */
  name: string;
  size: number;
  /** Modification time, epoch milliseconds (kept to the second). */
  mtimeMs: number;
  /** The file's bytes: exactly `size` of them, or writing fails. */
  body: AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
}

/** A tar stream of the files in order, ended by the two zero blocks that close an archive. */
export async function* tarStream(files: AsyncIterable<TTarFile>): AsyncGenerator<Buffer> {
  for await (const file of files) {
    const nameBytes = Buffer.byteLength(file.name);
    const pax: Record<string, string> = {};
    if (nameBytes > 100) pax.path = file.name;
    if (file.size > USTAR_MAX_SIZE) pax.size = String(file.size);
    if (Object.keys(pax).length > 0) {
      const records = paxRecords(pax);
      yield header({ name: 'PaxHeader', size: records.length, mtimeMs: file.mtimeMs, type: 'x' });
      yield records;
      yield padding(records.length);
    }
    yield header({ name: nameBytes > 100 ? file.name.slice(0, 100) : file.name, size: Math.min(file.size, USTAR_MAX_SIZE), mtimeMs: file.mtimeMs, type: '0' });
    let written = 0;
    for await (const chunk of file.body) {
      written += chunk.byteLength;
      if (written > file.size) throw new Error(`${file.name} grew while it was being archived (past ${file.size} bytes)`);
      yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    }
    if (written !== file.size) throw new Error(`${file.name} ended after ${written} of its ${file.size} bytes`);
    yield padding(file.size);
  }
  yield ZERO_BLOCK;
  yield ZERO_BLOCK;
}

/** A tar archive that cannot be read: cut short, damaged, or holding what a backup never holds. */
export class TarFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TarFormatError';
  }
}

export interface TTarEntry {
  name: string;
  size: number;
  mtimeMs: number;
}

/**
 * Reads a tar stream, handing each regular file to `onFile` with its bytes (read them or not: what
 * is left is skipped). Directory entries are passed over; links, devices and anything else are
 * refused. Throws TarFormatError when the stream ends before the archive's closing blocks.
 */
export async function readTar(source: AsyncIterable<Uint8Array>, onFile: (entry: TTarEntry, body: AsyncIterable<Buffer>) => Promise<void>): Promise<void> {
  const input = new ByteReader(source);
  let pax: Record<string, string> = {};
  for (;;) {
    const block = await input.read(BLOCK);
    if (block.equals(ZERO_BLOCK)) {
      // The end: a second zero block, then (from some writers) zeros up to a record's length.
      if (!(await input.read(BLOCK)).equals(ZERO_BLOCK)) throw new TarFormatError('The archive has a stray empty block');
      // Read to the very end, so the compression's own check of the whole stream runs too.
      if (!(await input.onlyZerosLeft())) throw new TarFormatError('The archive has data after its end');
      return;
    }
    const parsed = parseHeader(block);
    const size = pax.size === undefined ? parsed.size : Number(pax.size);
    if (!Number.isSafeInteger(size) || size < 0) throw new TarFormatError(`An entry has an invalid size: ${pax.size}`);
    const name = pax.path ?? parsed.name;
    const dataBlocks = Math.ceil(size / BLOCK) * BLOCK;
    if (parsed.type === 'x') {
      if (size > PAX_MAX_BYTES) throw new TarFormatError(`An extended header of ${size} bytes is larger than any backup writes`);
      pax = parsePaxRecords(await input.read(size));
      await input.skip(dataBlocks - size);
      continue;
    }
    pax = {};
    if (parsed.type === 'g' || parsed.type === '5') {
      // Global headers (git archive writes one) and folders carry nothing a restore needs.
      await input.skip(dataBlocks);
      continue;
    }
    if (parsed.type !== '0' && parsed.type !== '\0') throw new TarFormatError(`${name} is not a regular file (tar type ${JSON.stringify(parsed.type)}); a backup holds only files`);
    const body = input.take(size);
    await onFile({ name, size, mtimeMs: parsed.mtimeMs }, body);
    await body.rest();
    await input.skip(dataBlocks - size);
  }
}

function header(entry: { name: string; size: number; mtimeMs: number; type: '0' | 'x' }): Buffer {
  const block = Buffer.alloc(BLOCK);
  block.write(entry.name, 0, 100, 'utf8');
  writeOctal(block, 100, 8, 0o644);
  writeOctal(block, 108, 8, 0);
  writeOctal(block, 116, 8, 0);
  writeOctal(block, 124, 12, entry.size);
  writeOctal(block, 136, 12, Math.max(0, Math.floor(entry.mtimeMs / 1000)));
  block.write(entry.type, 156, 1, 'latin1');
  block.write('ustar\0', 257, 6, 'latin1');
  block.write('00', 263, 2, 'latin1');
  block.fill(0x20, 148, 156);
  writeOctal(block, 148, 7, checksumOf(block));
  return block;
}

function parseHeader(block: Buffer): { name: string; size: number; mtimeMs: number; type: string } {
  const stored = readOctal(block, 148, 8);
  const copy = Buffer.from(block);
  copy.fill(0x20, 148, 156);
  if (stored === undefined || stored !== checksumOf(copy)) throw new TarFormatError('The archive is damaged: a header does not match its checksum');
  if (block.toString('latin1', 257, 262) !== 'ustar') throw new TarFormatError('This is not a ustar archive');
  const name = cString(block, 0, 100);
  const prefix = cString(block, 345, 155);
  const size = readOctal(block, 124, 12);
  const mtime = readOctal(block, 136, 12) ?? 0;
  if (size === undefined) throw new TarFormatError(`${name} has no readable size`);
  return { name: prefix ? `${prefix}/${name}` : name, size, mtimeMs: mtime * 1000, type: block.toString('latin1', 156, 157) };
}

function checksumOf(block: Buffer): number {
  let sum = 0;
  for (const byte of block) sum += byte;
  return sum;
}

function writeOctal(block: Buffer, offset: number, length: number, value: number): void {
  block.write(`${value.toString(8).padStart(length - 1, '0')}\0`, offset, length, 'latin1');
}

function readOctal(block: Buffer, offset: number, length: number): number | undefined {
  const text = cString(block, offset, length).trim();
  if (!/^[0-7]+$/.test(text)) return undefined;
  return Number.parseInt(text, 8);
}

function cString(block: Buffer, offset: number, length: number): string {
  const field = block.subarray(offset, offset + length);
  const end = field.indexOf(0);
  return field.toString('utf8', 0, end === -1 ? length : end);
}

function padding(size: number): Buffer {
  return ZERO_BLOCK.subarray(0, (BLOCK - (size % BLOCK)) % BLOCK);
}

/** pax records: "<length> <key>=<value>\n", the length counting its own digits. */
function paxRecords(fields: Record<string, string>): Buffer {
  const records = Object.entries(fields).map(([key, value]) => {
    const rest = ` ${key}=${value}\n`;
    let length = Buffer.byteLength(rest) + 1;
    while (String(length).length + Buffer.byteLength(rest) !== length) length += 1;
    return `${length}${rest}`;
  });
  return Buffer.from(records.join(''), 'utf8');
}

function parsePaxRecords(bytes: Buffer): Record<string, string> {
  const fields: Record<string, string> = {};
  let offset = 0;
  while (offset < bytes.length) {
    const space = bytes.indexOf(0x20, offset);
    const length = Number(bytes.toString('latin1', offset, space));
    if (space === -1 || !Number.isSafeInteger(length) || length <= 0 || offset + length > bytes.length) {
      throw new TarFormatError('The archive is damaged: an extended header cannot be read');
    }
    const record = bytes.toString('utf8', space + 1, offset + length - 1);
    const eq = record.indexOf('=');
    if (eq > 0) fields[record.slice(0, eq)] = record.slice(eq + 1);
    offset += length;
  }
  return fields;
}

/** Exact reads over a stream of chunks of any size. */
class ByteReader {
  readonly #iterator: AsyncIterator<Uint8Array>;
  #chunks: Buffer[] = [];
  #buffered = 0;

  constructor(source: AsyncIterable<Uint8Array>) {
    this.#iterator = source[Symbol.asyncIterator]();
  }

  /** Exactly `size` bytes; TarFormatError when the stream ends first. */
  async read(size: number): Promise<Buffer> {
    while (this.#buffered < size) await this.#pull();
    const all = this.#chunks.length === 1 ? this.#chunks[0]! : Buffer.concat(this.#chunks);
    this.#chunks = all.length > size ? [all.subarray(size)] : [];
    this.#buffered = all.length - size;
    return all.subarray(0, size);
  }

  async skip(size: number): Promise<void> {
    const body = this.take(size);
    await body.rest();
  }

  /** The next `size` bytes as chunks; `rest()` passes over whatever the reader left. */
  take(size: number): AsyncIterable<Buffer> & { rest(): Promise<void> } {
    let left = size;
    const next = async (): Promise<Buffer | undefined> => {
      if (left === 0) return undefined;
      while (this.#buffered === 0) await this.#pull();
      const chunk = this.#chunks.shift()!;
      const piece = chunk.length > left ? chunk.subarray(0, left) : chunk;
      if (chunk.length > left) this.#chunks.unshift(chunk.subarray(left));
      this.#buffered -= piece.length;
      left -= piece.length;
      return piece;
    };
    return {
      async *[Symbol.asyncIterator]() {
        for (let piece = await next(); piece !== undefined; piece = await next()) yield piece;
      },
      async rest() {
        while ((await next()) !== undefined);
      },
    };
  }

  /** Reads the stream to its end: true when nothing but zeros was left. */
  async onlyZerosLeft(): Promise<boolean> {
    let zeros = this.#chunks.every((chunk) => chunk.every((byte) => byte === 0));
    this.#chunks = [];
    this.#buffered = 0;
    for (let next = await this.#iterator.next(); !next.done; next = await this.#iterator.next()) {
      if (!next.value.every((byte) => byte === 0)) zeros = false;
    }
    return zeros;
  }

  async #pull(): Promise<void> {
    const { done, value } = await this.#iterator.next();
    if (done) throw new TarFormatError('The archive ends early: it is incomplete (cut short while it was written or copied)');
    if (value.byteLength > 0) {
      this.#chunks.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
      this.#buffered += value.byteLength;
    }
  }
}
