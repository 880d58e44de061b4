import { DomainError } from '../errors/domain-error';
import type { Database } from '../db/client';
import type { OptionSpecs, ParsedArgs } from './args';
import { UsageError } from './usage-error';

/** What a command prints: one JSON object with `--json`, else a few human-readable lines. */
export interface CommandOutput {
  json: Record<string, unknown>;
  text: string;
}

/** The work a command does once its arguments are valid; it is the only part that needs the database. */
export type CommandRun = (db: Database) => Promise<CommandOutput>;

export interface CliCommand {
  /** The two words that name it, e.g. `merchant create`. */
  group: string;
  action: string;
  summary: string;
  /** The synopsis line(s) and option descriptions printed by `--help`. */
  usage: string;
  /** The command's own options; `--json` and `--help` are accepted by every command. */
  options: OptionSpecs;
  /** Validates the arguments before any database is touched; throws UsageError. */
  prepare(args: ParsedArgs): CommandRun;
}

export const EXIT_OK = 0;
export const EXIT_INPUT_ERROR = 1;
export const EXIT_UNEXPECTED_FAILURE = 2;

/**
 * The CLI's mapping of failures: a usage error or any DomainError (the service refused well-formed arguments:
 * unknown merchant, invalid address, …) is the operator's to fix, exit 1; anything else is unexpected, exit 2.
 */
export function exitCodeFor(error: unknown): number {
  return error instanceof UsageError || error instanceof DomainError ? EXIT_INPUT_ERROR : EXIT_UNEXPECTED_FAILURE;
}
