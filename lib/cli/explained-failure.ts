/**
 * A command that ran and failed for a reason its message explains in full (an upstream that could not be read, a
 * setting to change): exit 2 as for any failure, but no stack trace, which would only bury the reason.
 */
export class ExplainedFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExplainedFailure';
  }
}
