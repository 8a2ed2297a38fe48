import { promisify } from 'node:util';
import { crc32, deflateRaw } from 'node:zlib';

const deflate = promisify(deflateRaw);

export interface ZipEntry {
  /** '/'-separated path; directories end with '/'. */
  name: string;
  kind: 'file' | 'directory' | 'symlink';
  /** Unix mode including the file type bits (lstat's mode). */
  mode: number;
  modified: Date;
  /** File content, or the link target of a symlink. */
  data?: Uint8Array;
}

const UTF8_NAMES = 0x0800;
const VERSION_NEEDED = 20; // 2.0: deflate and directories
const MADE_BY_UNIX = (3 << 8) | VERSION_NEEDED; // so readers take the external attributes as a Unix mode (symlinks, executables)
const MAX_16 = 0xffff;
const MAX_32 = 0xffffffff;

function dosDateTime(date: Date): { time: number; date: number } {
  const year = Math.max(date.getFullYear(), 1980);
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2),
    date: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

/**
 * A zip archive (PKWARE APPNOTE, without ZIP64): each entry deflated when that makes it
 * smaller, else stored. Compression runs on the thread pool so a large workspace does
 * not stall the server.
 */
export async function createZip(entries: readonly ZipEntry[]): Promise<Uint8Array> {
  if (entries.length > MAX_16) throw new Error(`Too many files to zip (${entries.length}; at most ${MAX_16})`);
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const data = entry.data ?? new Uint8Array();
    const packed = entry.kind === 'file' && data.length > 0 ? await deflate(data) : null;
    const deflated = packed !== null && packed.length < data.length;
    const body = deflated ? packed : data;
    const crc = crc32(data);
    const { time, date } = dosDateTime(entry.modified);
    if (body.length > MAX_32 || offset > MAX_32) throw new Error('The workspace is too large to zip (over 4 GB)');

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(VERSION_NEEDED, 4);
    local.writeUInt16LE(UTF8_NAMES, 6);
    local.writeUInt16LE(deflated ? 8 : 0, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);

    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(MADE_BY_UNIX, 4);
    header.writeUInt16LE(VERSION_NEEDED, 6);
    header.writeUInt16LE(UTF8_NAMES, 8);
    header.writeUInt16LE(deflated ? 8 : 0, 10);
    header.writeUInt16LE(time, 12);
    header.writeUInt16LE(date, 14);
    header.writeUInt32LE(crc, 16);
    header.writeUInt32LE(body.length, 20);
    header.writeUInt32LE(data.length, 24);
    header.writeUInt16LE(name.length, 28);
    // extra field, comment, disk number, internal attributes: all zero
    header.writeUInt32LE((((entry.mode & MAX_16) << 16) | (entry.kind === 'directory' ? 0x10 : 0)) >>> 0, 38);
    header.writeUInt32LE(offset, 42);

    parts.push(local, name, Buffer.from(body.buffer, body.byteOffset, body.length));
    central.push(header, name);
    offset += local.length + name.length + body.length;
  }
  const centralSize = central.reduce((sum, part) => sum + part.length, 0);
  if (offset + centralSize > MAX_32) throw new Error('The workspace is too large to zip (over 4 GB)');
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, ...central, end]);
}
