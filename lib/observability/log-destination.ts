import type { DestinationStream, Logger } from 'pino';

/**
 * Where the process's log goes, apart from the logger itself (logger.ts), so that a command can choose the
 * destination before anything logs without loading pino: `npm run admin -- --help --json` prints and exits without it.
 */
export const logState = globalThis as unknown as { __paymentLogger?: Logger; __paymentLogDestination?: DestinationStream };

/** Sends the process's log to `destination` from now on (tests capture it); undefined goes back to stdout. */
export function redirectLog(destination: DestinationStream | undefined): void {
  logState.__paymentLogDestination = destination;
  logState.__paymentLogger = undefined;
}

/** JSON lines in production (one object per line, for a log collector), readable lines otherwise; LOG_FORMAT overrides. */
export function logFormat(env: NodeJS.ProcessEnv = process.env): 'json' | 'pretty' {
  if (env.LOG_FORMAT === 'json' || env.LOG_FORMAT === 'pretty') return env.LOG_FORMAT;
  return env.NODE_ENV === 'production' ? 'json' : 'pretty';
}
