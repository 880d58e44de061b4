import { writeSync } from 'node:fs';
import { logFormat } from '../observability/log-destination';
import { scrubText } from '../observability/log-scrub';

/**
 * A process refuses to start because of its configuration. The message names the setting and says what to do;
 * entry points print it and exit without a stack trace (nothing is wrong with the code).
 */
export class StartupRefusal extends Error {
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(`${setting}: ${message}`);
    this.name = 'StartupRefusal';
  }
}

/**
 * For an entry point (service, worker, migrations): a refusal is printed as one line naming the setting, without a
 * stack trace, and the process exits 1; any other uncaught failure is reported with its stack. Where the log is JSON
 * (production), the line is a log entry like the others (level 60, fatal), its newlines escaped.
 */
export function reportStartupRefusals(): void {
  process.on('uncaughtException', (error) => {
    const text = error instanceof StartupRefusal ? `refused to start: ${error.message}` : scrubText(error instanceof Error && error.stack ? error.stack : String(error));
    // Straight to the file descriptor: the streams may be routed through the logger (process-output.ts), and the
    // process exits right after.
    const line = logFormat() === 'json' ? JSON.stringify({ level: 60, time: Date.now(), pid: process.pid, component: 'startup', msg: text }) : text;
    writeSync(2, `${line}\n`);
    process.exit(1);
  });
}
