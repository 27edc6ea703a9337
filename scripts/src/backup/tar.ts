/**
 * The tar format of backup archives, written and read as streams by tar-stream (POSIX ustar, with
 * a pax header for a name that does not fit), so `tar -tzf` lists an archive and `tar -xzf` unpacks
 * one by hand. Only what backups need: regular files, written one after the other with their size
 * known before their bytes; reading refuses links and devices.
 */
import { once } from 'node:events';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { extract as createExtract, pack as createPack, type Header, type Pack } from 'tar-stream';

/** An archive ends with two zero blocks of 512 bytes. */
const END_OF_ARCHIVE_BYTES = 1024;

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
  const pack = createPack();
  const writing = writeEntries(pack, files).then(
    () => pack.finalize(),
    (error: unknown) => pack.destroy(error as Error),
  );
  try {
    for await (const chunk of pack) yield chunk as Buffer;
  } finally {
    // Torn down early (the consumer stopped): stop the writer too, which closes the file it was reading.
    if (!pack.destroyed) pack.destroy();
    await writing;
  }
}

async function writeEntries(pack: Pack, files: AsyncIterable<TTarFile>): Promise<void> {
  for await (const file of files) {
    let failure: Error | undefined;
    const done = new Promise<void>((resolve, reject) => {
      const entry = pack.entry({ name: file.name, size: file.size, mtime: new Date(file.mtimeMs), mode: 0o644, type: 'file' }, (error) => {
        if (error) reject(failure ?? error);
        else resolve();
      });
      // The entry's failure reaches the callback above; its own error event would go unheard.
      entry.on('error', () => undefined);
      void copyBody(file, entry).then(
        () => entry.end(undefined),
        (error: Error) => {
          failure = error;
          entry.destroy(error);
        },
      );
    });
    await done;
  }
}

type TEntrySink = ReturnType<Pack['entry']>;

async function copyBody(file: TTarFile, entry: TEntrySink): Promise<void> {
  let written = 0;
  for await (const chunk of file.body) {
    written += chunk.byteLength;
    if (written > file.size) throw new Error(`${file.name} grew while it was being archived (past ${file.size} bytes)`);
    if (!entry.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))) {
      await Promise.race([once(entry as unknown as NodeJS.EventEmitter, 'drain'), once(entry as unknown as NodeJS.EventEmitter, 'close')]);
      if (entry.destroyed) throw new Error('The archive was closed while it was being written');
    }
  }
  if (written !== file.size) throw new Error(`${file.name} ended after ${written} of its ${file.size} bytes`);
}

/** A tar archive that cannot be read: cut short, damaged, or holding what a backup never holds. */
export class TarFormatError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'TarFormatError';
  }
}

export interface TTarEntry {
  name: string;
  size: number;
  mtimeMs: number;
}

/** Entries a restore passes over: folders carry nothing it needs. */
const PASSED_OVER: ReadonlySet<string | null> = new Set(['directory']);

/**
 * Reads a tar stream, handing each regular file to `onFile` with its bytes (read them all or none:
 * what is left unread is skipped). Directory entries are passed over; links, devices and anything
 * else are refused. Throws TarFormatError when the stream is damaged or ends before the archive's
 * closing blocks; an error of the source itself (say a broken compression) is thrown as it is.
 */
export async function readTar(source: AsyncIterable<Uint8Array>, onFile: (entry: TTarEntry, body: AsyncIterable<Buffer>) => Promise<void>): Promise<void> {
  const extract = createExtract();
  let tail: Buffer = Buffer.alloc(0);
  let sourceError: unknown;
  async function* tracked(): AsyncGenerator<Buffer> {
    try {
      for await (const chunk of source) {
        const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        tail = bytes.length >= END_OF_ARCHIVE_BYTES ? bytes.subarray(bytes.length - END_OF_ARCHIVE_BYTES) : Buffer.concat([tail, bytes]).subarray(-END_OF_ARCHIVE_BYTES);
        yield bytes;
      }
    } catch (error) {
      sourceError = error;
      throw error;
    }
  }
  let readError: unknown;
  // Read to the very end, so the compression's own check of the whole stream runs too.
  const feeding = pipeline(Readable.from(tracked()), extract as unknown as NodeJS.WritableStream).catch((error: unknown) => {
    readError = error;
  });
  let refusal: unknown;
  try {
    for await (const entry of extract) {
      const { header } = entry;
      // tar-stream names the types it knows; another (a vendor extension) comes as null.
      const type: Header['type'] | null = header.type;
      if (PASSED_OVER.has(type)) {
        entry.resume();
        continue;
      }
      if (type !== 'file') {
        refusal = new TarFormatError(`${header.name} is not a regular file (tar type ${JSON.stringify(type)}); a backup holds only files`);
        throw refusal;
      }
      const size = header.size ?? Number.NaN;
      if (!Number.isSafeInteger(size) || size < 0) {
        refusal = new TarFormatError(`An entry has an invalid size: ${header.size}`);
        throw refusal;
      }
      try {
        await onFile({ name: header.name, size, mtimeMs: header.mtime?.getTime() ?? 0 }, entry as AsyncIterable<Buffer>);
      } catch (error) {
        refusal = error;
        throw error;
      }
      entry.resume();
    }
  } catch (error) {
    extract.destroy();
    await feeding;
    if (refusal !== undefined) throw refusal;
    if (sourceError !== undefined) throw sourceError;
    throw new TarFormatError(`The archive is damaged: ${(error as Error).message}`, { cause: error });
  }
  await feeding;
  if (sourceError !== undefined) throw sourceError;
  if (readError !== undefined) throw new TarFormatError(`The archive is damaged: ${(readError as Error).message}`, { cause: readError });
  if (tail.length < END_OF_ARCHIVE_BYTES || tail.some((byte) => byte !== 0)) {
    throw new TarFormatError('The archive ends early: it is incomplete (cut short while it was written or copied)');
  }
}
