import { open } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import { createInflateRaw } from 'node:zlib';
import { BillFormatError } from './bill-row';

/** A file inside a zip archive on disk. */
export interface ZipEntry {
  name: string;
  /** Its uncompressed bytes, streamed from the archive (stored or deflated). */
  open(): AsyncIterable<Uint8Array>;
}

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_FILE_HEADER = 0x02014b50;
const LOCAL_FILE_HEADER = 0x04034b50;
const MAX_COMMENT = 0xffff;

/**
 * The entries of a zip archive (the file on disk, read through its central directory, so entries written with data
 * descriptors are found too). Names are decoded as UTF-8 when the archive says so (flag bit 11), else as GBK, which
 * is how Chinese archivers write them. Zip64 and encryption are refused.
 */
export async function zipEntries(path: string): Promise<ZipEntry[]> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const tailLength = Math.min(size, 22 + MAX_COMMENT);
    const tail = Buffer.alloc(tailLength);
    await file.read(tail, 0, tailLength, size - tailLength);
    let end = -1;
    for (let at = tailLength - 22; at >= 0; at -= 1) {
      if (tail.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY) {
        end = at;
        break;
      }
    }
    if (end < 0) throw new BillFormatError('the bill archive is not a zip file (no end of central directory)');
    const count = tail.readUInt16LE(end + 10);
    const directorySize = tail.readUInt32LE(end + 12);
    const directoryOffset = tail.readUInt32LE(end + 16);
    if (directoryOffset === 0xffffffff || count === 0xffff) throw new BillFormatError('the bill archive is zip64, which is not expected for a daily bill');
    const directory = Buffer.alloc(directorySize);
    await file.read(directory, 0, directorySize, directoryOffset);
    const entries: ZipEntry[] = [];
    let at = 0;
    for (let index = 0; index < count; index += 1) {
      if (directory.readUInt32LE(at) !== CENTRAL_FILE_HEADER) throw new BillFormatError('the bill archive has a damaged central directory');
      const flags = directory.readUInt16LE(at + 8);
      const method = directory.readUInt16LE(at + 10);
      const compressedSize = directory.readUInt32LE(at + 20);
      const nameLength = directory.readUInt16LE(at + 28);
      const extraLength = directory.readUInt16LE(at + 30);
      const commentLength = directory.readUInt16LE(at + 32);
      const localOffset = directory.readUInt32LE(at + 42);
      const nameBytes = directory.subarray(at + 46, at + 46 + nameLength);
      const name = new TextDecoder(flags & 0x800 ? 'utf-8' : 'gbk').decode(nameBytes);
      if (flags & 0x1) throw new BillFormatError(`bill archive entry ${name} is encrypted`);
      if (method !== 0 && method !== 8) throw new BillFormatError(`bill archive entry ${name} uses compression method ${method}`);
      const local = Buffer.alloc(30);
      await file.read(local, 0, 30, localOffset);
      if (local.readUInt32LE(0) !== LOCAL_FILE_HEADER) throw new BillFormatError(`bill archive entry ${name} has no local header`);
      const dataStart = localOffset + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
      entries.push({
        name,
        open() {
          const raw = compressedSize === 0 ? (async function* () {})() : createReadStream(path, { start: dataStart, end: dataStart + compressedSize - 1 });
          return method === 0 || compressedSize === 0 ? raw : (raw as NodeJS.ReadableStream).pipe(createInflateRaw());
        },
      });
      at += 46 + nameLength + extraLength + commentLength;
    }
    return entries;
  } finally {
    await file.close();
  }
}
