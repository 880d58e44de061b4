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
