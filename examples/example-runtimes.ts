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
 * The compiled examples among `examples` built once into `directory` (javac, go build), as a merchant deploys them: a
 * subcommand run many times in a test runs the built program, where the source launch compiles again on every run
 * (javac alone made the Java example half of the examples' time). The receiver keeps the README's command
 * (`java Payment.java receive`, `go run payment.go receive`), so the documented launch runs in every test too; the
 * interpreted examples are as they are.
 */
export async function builtExampleRuntimes(directory: string, examples: readonly ExampleRuntime[]): Promise<(example: ExampleRuntime) => ExampleRuntime> {
  const builds: Partial<Record<ExampleProgram['language'], (file: string) => { build: string[]; command: (args: readonly string[]) => string[] }>> = {
    java: (file) => ({ build: ['javac', '-d', path.join(directory, 'java'), file], command: (args) => ['java', '-cp', path.join(directory, 'java'), path.basename(file, '.java'), ...args] }),
    go: (file) => ({ build: ['go', 'build', '-o', path.join(directory, 'go', 'payment'), file], command: (args) => [path.join(directory, 'go', 'payment'), ...args] }),
  };
  const built = new Map<ExampleProgram['language'], (args: readonly string[]) => string[]>();
  await Promise.all(
    examples.map(async (example) => {
      const plan = builds[example.language]?.(example.file);
      if (!plan) return;
      const [program, ...args] = plan.build;
      await run(program!, args, { cwd: repositoryRoot });
      built.set(example.language, plan.command);
    }),
  );
  return (example) => ({ ...example, command: built.get(example.language) ?? example.command });
}
