/**
 * A stored (uncompressed) ZIP of a few small entries, for the demo sites' archives. Fixed entry
 * times, so the same entries always make the same bytes. Stored is what photographers' delivery
 * ZIPs mostly are: JPEGs do not compress.
 */
import { crc32 } from 'node:zlib';

export interface TZipEntry {
  /** Path inside the archive, with '/' between folders. */
  name: string;
  bytes: Uint8Array;
}

/** 2026-11-20 12:00:00 in MS-DOS time and date. */
const DOS_TIME = (12 << 11) | (0 << 5) | 0;
const DOS_DATE = ((2026 - 1980) << 9) | (11 << 5) | 20;

/**
 * The fields the local and the central header share, from "version needed" to the name's length;
 * the local header has them at 4, the central one at 6 (after "made by").
 */
function writeEntryFields(header: Buffer, at: number, entry: { crc: number; size: number; nameLength: number }): void {
  header.writeUInt16LE(20, at); // version needed
  header.writeUInt16LE(0x0800, at + 2); // UTF-8 names
  header.writeUInt16LE(0, at + 4); // stored
  header.writeUInt16LE(DOS_TIME, at + 6);
  header.writeUInt16LE(DOS_DATE, at + 8);
  header.writeUInt32LE(entry.crc, at + 10);
  header.writeUInt32LE(entry.size, at + 14);
  header.writeUInt32LE(entry.size, at + 18);
  header.writeUInt16LE(entry.nameLength, at + 22);
}

export function storedZip(entries: readonly TZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const fields = { crc: crc32(entry.bytes), size: entry.bytes.length, nameLength: name.length };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    writeEntryFields(local, 4, fields);
    locals.push(local, name, Buffer.from(entry.bytes));

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // made by
    writeEntryFields(central, 6, fields);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + fields.size;
  }
  const centralSize = centrals.reduce((sum, b) => sum + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}
