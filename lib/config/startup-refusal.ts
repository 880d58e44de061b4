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
 * stack trace, and the process exits 1; any other uncaught failure is reported as Node.js would.
 */
export function reportStartupRefusals(): void {
  process.on('uncaughtException', (error) => {
    if (error instanceof StartupRefusal) process.stderr.write(`refused to start: ${error.message}\n`);
    else process.stderr.write(`${error instanceof Error && error.stack ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
