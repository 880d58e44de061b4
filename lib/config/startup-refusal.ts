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
