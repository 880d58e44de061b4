import pino, { type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';
import { scrubText, scrubValue, SECRET_FIELD_NAMES } from './log-scrub';
import { logFormat, logState } from './log-destination';

export { redirectLog } from './log-destination';

/**
 * The service's log: JSON lines in production (one object per line, for a log collector), readable lines in
 * development (LOG_FORMAT=json|pretty overrides; LOG_LEVEL sets the level, info by default). A line about a request or
 * an order names it (`requestId`, `orderNo`: the callers pass them, see request-id.ts); secrets are removed twice:
 * by field name (redact paths) and by a scrub of every text (log-scrub.ts).
 */
const REDACT_PATHS = [...SECRET_FIELD_NAMES, ...SECRET_FIELD_NAMES.map((name) => `*.${name}`), 'headers.authorization', 'headers.cookie', 'req.headers.authorization', 'req.headers.cookie'];

/** A logger writing to `destination` (stdout by default), as configured by the environment. */
export function createLogger(destination?: DestinationStream, env: NodeJS.ProcessEnv = process.env): Logger {
  const json = logFormat(env) === 'json';
  const stream = destination ?? (json ? pino.destination({ dest: 1, sync: true }) : pretty({ colorize: process.stdout.isTTY === true, sync: true, ignore: 'pid,hostname', translateTime: 'SYS:HH:MM:ss.l' }));
  return pino(
    {
      level: env.LOG_LEVEL?.trim() || 'info',
      base: json ? { pid: process.pid } : undefined,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      formatters: { log: (fields) => scrubValue(fields) as Record<string, unknown> },
      hooks: {
        logMethod(args, method) {
          // The message text (and any printf-style arguments) are scrubbed like the fields.
          method.apply(this, args.map((arg) => (typeof arg === 'string' ? scrubText(arg) : arg)) as Parameters<typeof method>);
        },
      },
      serializers: { err: (error: unknown) => scrubValue(error) },
    },
    stream,
  );
}

/** The process's logger (kept across Next.js's module reloads in development). */
export function log(): Logger {
  logState.__paymentLogger ??= createLogger(logState.__paymentLogDestination);
  return logState.__paymentLogger;
}

/** A `(line) => void` for code that reports in plain lines (startup, jobs, workers): each line an info entry. */
export function logLine(component: string): (line: string) => void {
  return (line) => log().info({ component }, line);
}
