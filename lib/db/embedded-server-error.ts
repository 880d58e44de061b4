/**
 * The embedded PostgreSQL could not be started. Its message is one line that says what to do; entry points print it
 * instead of a stack trace.
 */
export class EmbeddedServerError extends Error {
  constructor(message: string) {
    super(`embedded PostgreSQL: ${message}`);
    this.name = 'EmbeddedServerError';
  }
}
