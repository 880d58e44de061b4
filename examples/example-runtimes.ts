import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { repositoryRoot } from '../lib/cli/run-admin-for-tests';
import { EXAMPLE_PROGRAMS, type ExampleProgram } from '../lib/examples/example-programs';

/** Each example's own runtime, as a merchant runs it: the command line for a subcommand, and for the receiver. */
export interface ExampleRuntime extends ExampleProgram {
  command(args: readonly string[]): string[];
  /** The notification receiver on `port` (NOTIFY_PORT); PHP's is the file served by PHP's own web server. */
  receiver(port: number): string[];
}

const COMMANDS: Record<ExampleProgram['language'], (file: string) => string[]> = {
  php: (file) => ['php', file],
  java: (file) => ['java', file], // Java 11+ single-file source launch
  python: (file) => ['python3', file],
  go: (file) => ['go', 'run', file],
  node: (file) => ['node', file],
};

export const EXAMPLE_RUNTIMES: readonly ExampleRuntime[] = EXAMPLE_PROGRAMS.map((program) => ({
  ...program,
  command: (args) => [...COMMANDS[program.language](program.file), ...args],
  receiver: (port) => (program.language === 'php' ? ['php', '-S', `127.0.0.1:${port}`, program.file] : [...COMMANDS[program.language](program.file), 'receive']),
}));

const run = promisify(execFile);

/**
 * The compiled examples built once into `directory` (javac, go build), as a merchant deploys them: a subcommand run
 * many times in a test runs the built program, where the source launch compiles again on every run (javac alone made
 * the Java example half of the examples' time). The receiver keeps the README's command (`java Payment.java receive`,
 * `go run payment.go receive`), so the documented launch runs in every test too; the interpreted examples are as they are.
 */
export async function builtExampleRuntimes(directory: string): Promise<(example: ExampleRuntime) => ExampleRuntime> {
  const programFile = (language: ExampleProgram['language']) => EXAMPLE_PROGRAMS.find((program) => program.language === language)!.file;
  const javaClasses = path.join(directory, 'java');
  const goBinary = path.join(directory, 'go', 'payment');
  await Promise.all([run('javac', ['-d', javaClasses, programFile('java')], { cwd: repositoryRoot }), run('go', ['build', '-o', goBinary, programFile('go')], { cwd: repositoryRoot })]);
  const built: Partial<Record<ExampleProgram['language'], (args: readonly string[]) => string[]>> = {
    java: (args) => ['java', '-cp', javaClasses, path.basename(programFile('java'), '.java'), ...args],
    go: (args) => [goBinary, ...args],
  };
  return (example) => ({ ...example, command: built[example.language] ?? example.command });
}
