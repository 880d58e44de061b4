import { crc32, deflateRawSync } from 'node:zlib';

/** One file of an archive written as it is produced: its name and its content, chunk by chunk. */
export interface ZipFile {
  /** The name's bytes: Alipay's archives name their files in GBK (no UTF-8 flag). */
  nameBytes: Buffer;
  content: AsyncIterable<Buffer>;
}

const u16 = (value: number) => {
  const buffer = Buffer.alloc(2);
  buffer.writeUInt16LE(value);
  return buffer;
};
const u32 = (value: number) => {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32LE(value >>> 0);
  return buffer;
};

/**
 * A zip archive (PKWARE APPNOTE 4.3: deflated entries, sizes and CRC in a data descriptor after each, since they are
 * known only once the content has been written; then the central directory). Each chunk is deflated as its own
 * sync-flushed block, so nothing but the current chunk is held.
 */
export async function* zipStream(files: readonly ZipFile[]): AsyncGenerator<Buffer> {
  let offset = 0;
  const central: Buffer[] = [];
  for (const file of files) {
    const header = Buffer.concat([u32(0x04034b50), u16(20), u16(0x0008), u16(8), u16(0), u16(0x21), u32(0), u32(0), u32(0), u16(file.nameBytes.length), u16(0), file.nameBytes]);
    yield header;
    const localOffset = offset;
    offset += header.length;
    let crc = 0;
    let compressed = 0;
    let size = 0;
    for await (const chunk of file.content) {
      crc = crc32(chunk, crc);
      size += chunk.length;
      const block = deflateRawSync(chunk, { finishFlush: 2 /* Z_SYNC_FLUSH */ });
      compressed += block.length;
      yield block;
    }
    // The final, empty block ends the deflate stream.
    const last = Buffer.from([0x03, 0x00]);
    compressed += last.length;
    yield last;
    const descriptor = Buffer.concat([u32(0x08074b50), u32(crc), u32(compressed), u32(size)]);
    yield descriptor;
    offset += compressed + descriptor.length;
    central.push(
      Buffer.concat([u32(0x02014b50), u16(20), u16(20), u16(0x0008), u16(8), u16(0), u16(0x21), u32(crc), u32(compressed), u32(size), u16(file.nameBytes.length), u16(0), u16(0), u16(0), u16(0), u32(0), u32(localOffset), file.nameBytes]),
    );
  }
  const directory = Buffer.concat(central);
  yield directory;
  yield Buffer.concat([u32(0x06054b50), u16(0), u16(0), u16(files.length), u16(files.length), u32(directory.length), u32(offset), u16(0)]);
}
