import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** A daily bill larger than this is refused rather than filling the disk. */
export const MAX_BILL_BYTES = 2 * 1024 * 1024 * 1024;

/** The response's body, refused past MAX_BILL_BYTES. */
export function boundedBody(response: Response): Readable {
  if (!response.body) throw new Error('the bill download has no body');
  let seen = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > MAX_BILL_BYTES ? new Error(`the bill is larger than ${MAX_BILL_BYTES} bytes`) : null, chunk);
    },
  });
  return Readable.fromWeb(response.body as import('node:stream/web').ReadableStream).pipe(limit);
}

/**
 * Streams a download to a temporary file (an archive is read from its end, so it is kept on disk, never in memory).
 * The caller removes it when done.
 */
export async function saveToTemporaryFile(response: Response): Promise<{ path: string; remove: () => Promise<void> }> {
  const directory = await mkdtemp(join(tmpdir(), 'bill-'));
  const remove = () => rm(directory, { recursive: true, force: true });
  try {
    const path = join(directory, 'bill');
    await pipeline(boundedBody(response), createWriteStream(path));
    return { path, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}
