import { StartupRefusal } from '../config/startup-refusal';
import { DomainError } from '../errors/domain-error';
import { exitCodeFor } from './command';
import { ExplainedFailure } from './explained-failure';
import { UsageError } from './usage-error';

export interface OutputStreams {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

export const processStreams: OutputStreams = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
};

/** With --json exactly one JSON object (one line) on stdout; else the human-readable text. */
export function printResult(streams: OutputStreams, json: boolean, result: { json: Record<string, unknown>; text: string }): void {
  streams.stdout(`${json ? JSON.stringify(result.json) : result.text}\n`);
}

function errorKind(error: unknown): 'usage' | 'rejected' | 'internal' {
  if (error instanceof UsageError) return 'usage';
  if (error instanceof DomainError) return 'rejected';
  return 'internal';
}

/**
 * Reports a failure and returns the exit code. The message always goes to stderr (with the usage for a usage
 * error, and the stack for an unexpected failure); with --json stdout also gets `{"error":{"kind","message"}}`.
 */
export function reportError(streams: OutputStreams, json: boolean, error: unknown): number {
  const kind = errorKind(error);
  const message = error instanceof Error ? error.message : String(error);
  if (json) streams.stdout(`${JSON.stringify({ error: { kind, message } })}\n`);
  const lines = [`error: ${message}`];
  if (error instanceof UsageError && error.usage) lines.push('', error.usage);
  // A refusal to start names its setting, an explained failure its reason: the code is not at fault, so no stack trace.
  if (kind === 'internal' && error instanceof Error && !(error instanceof StartupRefusal) && !(error instanceof ExplainedFailure) && error.stack) lines.push('', error.stack);
  streams.stderr(`${lines.join('\n')}\n`);
  return exitCodeFor(error);
}
