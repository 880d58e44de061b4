/**
 * The operator typed something the CLI cannot run: unknown command or option, missing or malformed value. Exit 1.
 * Its own module: the argument parser (args.ts) throws it and the command types (command.ts) name the parser's types,
 * so neither imports the other.
 */
export class UsageError extends Error {
  constructor(
    message: string,
    /** Usage text of the command concerned, shown after the message. */
    readonly usage?: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}
