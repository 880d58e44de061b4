import { accountCommands } from './account-commands';
import { parseCommandArgs } from './args';
import { callbackCommands } from './callback-commands';
import { CHANNEL_COMMANDS } from './channel-commands';
import { credentialCommands } from './credential-commands';
import type { CliCommand, CommandRun } from './command';
import { UsageError } from './usage-error';
import { merchantCommands } from './merchant-commands';
import { notifyCommands } from './notify-commands';
import { operatorCommands } from './operator-commands';
import { orderCommands } from './order-commands';
import { reconcileCommands } from './reconcile-commands';

/** The shared commands, with each channel's own (its receiving addresses, limits, chains…) after the merchant ones. */
export const COMMANDS: readonly CliCommand[] = [
  ...merchantCommands,
  ...CHANNEL_COMMANDS,
  ...orderCommands,
  ...reconcileCommands,
  ...notifyCommands,
  ...callbackCommands,
  ...credentialCommands,
  ...operatorCommands,
  ...accountCommands,
];

const PROGRAM = 'npm run admin --';

export function commandName(command: CliCommand): string {
  return command.action === '' ? command.group : `${command.group} ${command.action}`;
}

function listing(commands: readonly CliCommand[]): string {
  const width = Math.max(...commands.map((command) => commandName(command).length));
  return commands.map((command) => `  ${commandName(command).padEnd(width)}  ${command.summary}`).join('\n');
}

export function generalUsage(): string {
  return [
    `usage: ${PROGRAM} <command> [options] [--json]`,
    '',
    'Operator commands for the payment order service. They use DATABASE_URL when it is set, else the embedded',
    'PostgreSQL server in ./.data/pg (the running service\'s, or one started for the command and stopped after it).',
    '',
    'commands:',
    listing(COMMANDS),
    '',
    'options for every command:',
    '  --json      print exactly one JSON object on stdout (errors too: {"error":{"kind","message"}})',
    '  --help, -h  print the command\'s usage',
    '',
    `exit codes: 0 done, 1 usage or input error, 2 unexpected failure. Run \`${PROGRAM} <command> --help\` for details.`,
  ].join('\n');
}

function groupUsage(group: string): string {
  const commands = COMMANDS.filter((command) => command.group === group);
  return [`usage: ${PROGRAM} ${group} <${commands.map((command) => command.action).join('|')}> [options] [--json]`, '', 'commands:', listing(commands)].join('\n');
}

export type Invocation =
  | { kind: 'help'; json: boolean; text: string; command?: CliCommand }
  | { kind: 'run'; json: boolean; command: CliCommand; run: CommandRun };

const isHelpFlag = (word: string) => word === '--help' || word === '-h';

/** Whether the operator asked for JSON, looked up before parsing so that usage errors are reported as JSON too. */
export function wantsJson(argv: readonly string[]): boolean {
  const terminator = argv.indexOf('--');
  return (terminator < 0 ? argv : argv.slice(0, terminator)).includes('--json');
}

/**
 * Finds the command named by the first two words of argv (`--json` / `--help` may come before them), parses and
 * validates its arguments. Touches no database; throws UsageError.
 */
export function resolveInvocation(argv: readonly string[]): Invocation {
  const json = wantsJson(argv);
  const words: string[] = [];
  const rest: string[] = [];
  let index = 0;
  for (; index < argv.length && words.length < 2; index += 1) {
    const word = argv[index]!;
    if (word === '--json' || isHelpFlag(word)) rest.push(word);
    else if (word.startsWith('-')) break;
    else words.push(word);
  }
  rest.push(...argv.slice(index));
  const help = rest.some(isHelpFlag);

  const [group, action] = words;
  if (group === undefined || group === 'help') {
    if (help || group === 'help') return { kind: 'help', json, text: generalUsage() };
    throw new UsageError('missing command', generalUsage());
  }
  if (!COMMANDS.some((command) => command.group === group)) {
    throw new UsageError(`unknown command: ${group}`, generalUsage());
  }
  // A group may have a command of its own (action ''), run when no action word follows: `reconcile --date …`.
  const groupCommand = COMMANDS.find((candidate) => candidate.group === group && candidate.action === '');
  if (action === undefined && groupCommand) {
    if (help) return { kind: 'help', json, text: groupCommand.usage, command: groupCommand };
    return { kind: 'run', json, command: groupCommand, run: groupCommand.prepare(parseCommandArgs(rest, groupCommand.options, groupCommand.usage)) };
  }
  if (action === undefined) {
    if (help) return { kind: 'help', json, text: groupUsage(group) };
    throw new UsageError(`missing ${group} command`, groupUsage(group));
  }
  const command = COMMANDS.find((candidate) => candidate.group === group && candidate.action === action);
  if (!command) throw new UsageError(`unknown command: ${group} ${action}`, groupUsage(group));
  if (help) return { kind: 'help', json, text: command.usage, command };
  const args = parseCommandArgs(rest, command.options, command.usage);
  return { kind: 'run', json, command, run: command.prepare(args) };
}
