import { format } from 'node:util';
import type { Logger } from 'pino';
import { log } from './logger';

type Level = 'debug' | 'info' | 'warn' | 'error';

const CONSOLE_LEVELS: Record<'debug' | 'trace' | 'log' | 'info' | 'warn' | 'error', Level> = {
  debug: 'debug',
  trace: 'debug',
  log: 'info',
  info: 'info',
  warn: 'warn',
  error: 'error',
};

const ANSI_ESCAPES = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;

/** A console call's text, each Error by its name and message (its stack goes into the entry's `err`). */
function consoleText(args: unknown[]): { text: string; error?: Error } {
  const error = args.find((arg): arg is Error => arg instanceof Error);
  const parts = args.map((arg) => (arg instanceof Error ? `${arg.name}: ${arg.message}` : arg));
  return { text: format(...parts).replace(ANSI_ESCAPES, '').trim(), error };
}

function chunkText(chunk: unknown, encoding: unknown): string {
  if (typeof chunk === 'string') return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString(typeof encoding === 'string' && Buffer.isEncoding(encoding) ? encoding : 'utf8');
  return String(chunk);
}

/**
 * From now on nothing reaches stdout or stderr but the logger's JSON lines: what the process's libraries print
 * (Next.js's errors and notices, with their stack traces and the request values they quote, such as an attacker's
 * Origin header; Node.js's warnings; anything written to the streams directly) becomes one log entry per call, its
 * newlines escaped inside the JSON, its text scrubbed like every other line. Without this, a value with a newline in
 * it would start a line of its own that a log collector reads as a genuine entry. For processes whose log is JSON
 * (production); a readable log in development is left as it is.
 */
export function routeProcessOutputThroughLog(component: string, logger: () => Logger = log): void {
  const entry = (level: Level, text: string, fields: Record<string, unknown> = {}) => {
    if (text === '' && !fields.err) return;
    logger()[level]({ component, ...fields }, text);
  };
  for (const [method, level] of Object.entries(CONSOLE_LEVELS) as [keyof typeof CONSOLE_LEVELS, Level][]) {
    console[method] = (...args: unknown[]) => {
      const { text, error } = consoleText(args);
      entry(level, text, error ? { err: error } : {});
    };
  }
  // The logger writes to file descriptor 1 itself, never through process.stdout: only the others' writes come here.
  for (const [stream, level] of [
    [process.stdout, 'info'],
    [process.stderr, 'warn'],
  ] as const) {
    const name = stream === process.stdout ? 'stdout' : 'stderr';
    stream.write = ((chunk: unknown, encoding?: unknown, callback?: unknown) => {
      entry(level, chunkText(chunk, encoding).replace(ANSI_ESCAPES, '').trim(), { stream: name });
      const done = typeof encoding === 'function' ? encoding : callback;
      if (typeof done === 'function') process.nextTick(done as () => void);
      return true;
    }) as typeof stream.write;
  }
}
