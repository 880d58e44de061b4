import { Writable } from 'node:stream';
import { redirectLog } from '../lib/observability/logger';

/**
 * Everything the process logs while a test runs: the service's log (JSON lines, redirected here) and whatever else
 * reaches stdout or stderr (console.*, a library's own output). `stop` puts both back.
 */
export function captureLog() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const writes = { stdout: process.stdout.write.bind(process.stdout), stderr: process.stderr.write.bind(process.stderr) };
  const capture = () =>
    ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      const done = rest.find((item) => typeof item === 'function') as (() => void) | undefined;
      done?.();
      return true;
    }) as typeof process.stdout.write;
  redirectLog(sink);
  process.stdout.write = capture();
  process.stderr.write = capture() as typeof process.stderr.write;
  return {
    lines,
    /** The service's entries (JSON lines), parsed. */
    entries: () => lines.flatMap((line) => (line.startsWith('{') ? [JSON.parse(line) as Record<string, unknown>] : [])),
    text: () => lines.join('\n'),
    stop() {
      process.stdout.write = writes.stdout;
      process.stderr.write = writes.stderr;
      redirectLog(undefined);
    },
  };
}
