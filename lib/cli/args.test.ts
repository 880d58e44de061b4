import { describe, expect, it } from 'vitest';
import { parseCommandArgs } from './args';
import { UsageError } from './usage-error';
import { COMMANDS, commandName, resolveInvocation, wantsJson } from './registry';

const options = { name: { type: 'string' as const }, orders: { type: 'string' as const } };

function usageErrorOf(action: () => unknown): UsageError {
  try {
    action();
  } catch (error) {
    if (error instanceof UsageError) return error;
    throw error;
  }
  throw new Error('expected a UsageError');
}

describe('parseCommandArgs', () => {
  it('reads string options (separate or inline values), flags and positionals', () => {
    const args = parseCommandArgs(['on', '--name', 'Acme Shop', '--orders=off', '--json'], options);
    expect(args.required('name')).toBe('Acme Shop');
    expect(args.optional('orders')).toBe('off');
    expect(args.flag('json')).toBe(true);
    expect(args.flag('help')).toBe(false);
    expect(args.positionals).toEqual(['on']);
  });

  it('accepts a value that starts with a single dash, and -h for --help', () => {
    const args = parseCommandArgs(['--name', '-1', '-h'], options);
    expect(args.optional('name')).toBe('-1');
    expect(args.flag('help')).toBe(true);
  });

  it('names the option in every error', () => {
    expect(usageErrorOf(() => parseCommandArgs(['--colour', 'red'], options)).message).toBe('unknown option --colour');
    expect(usageErrorOf(() => parseCommandArgs(['-x'], options)).message).toBe('unknown option -x');
    expect(usageErrorOf(() => parseCommandArgs(['--name'], options)).message).toBe('option --name needs a value');
    expect(usageErrorOf(() => parseCommandArgs(['--name', '--orders', 'on'], options)).message).toBe('option --name needs a value');
    expect(usageErrorOf(() => parseCommandArgs(['--json=yes'], options)).message).toBe('option --json takes no value');
    expect(usageErrorOf(() => parseCommandArgs(['--name', 'a', '--name', 'b'], options)).message).toBe('option --name is given more than once');
    expect(usageErrorOf(() => parseCommandArgs([], options).required('orders')).message).toBe('missing option --orders');
  });

  it('checks the number of positionals', () => {
    expect(parseCommandArgs(['T1'], options).expectPositionals('address')).toEqual(['T1']);
    expect(usageErrorOf(() => parseCommandArgs([], options).expectPositionals('address')).message).toBe('missing argument <address>');
    expect(usageErrorOf(() => parseCommandArgs(['a', 'b'], options).expectPositionals('address')).message).toBe('unexpected argument: b');
  });
});

function helpText(argv: string[]): string {
  const invocation = resolveInvocation(argv);
  if (invocation.kind !== 'help') throw new Error(`expected help for ${argv.join(' ')}`);
  return invocation.text;
}

describe('resolveInvocation', () => {
  it('finds each command by its two words, with --json before or after them', () => {
    for (const command of COMMANDS) {
      expect(resolveInvocation([command.group, command.action, '--help']).command).toBe(command);
    }
    const invocation = resolveInvocation(['--json', 'limit', 'set', '--usdt-max', '5']);
    expect(invocation).toMatchObject({ kind: 'run', json: true });
    expect(invocation.command && commandName(invocation.command)).toBe('limit set');
  });

  it('gives help for the whole CLI, a group and a command', () => {
    const general = helpText(['--help']);
    for (const command of COMMANDS) expect(general).toContain(commandName(command));
    expect(helpText(['help'])).toBe(general);
    expect(helpText(['address', '-h'])).toContain('address list');
    expect(helpText(['merchant', 'create', '--help'])).toContain('--orders on|off');
  });

  it('rejects unknown and missing commands before touching a database', () => {
    expect(usageErrorOf(() => resolveInvocation([])).message).toBe('missing command');
    expect(usageErrorOf(() => resolveInvocation(['refund'])).message).toBe('unknown command: refund');
    expect(usageErrorOf(() => resolveInvocation(['merchant'])).message).toBe('missing merchant command');
    expect(usageErrorOf(() => resolveInvocation(['merchant', 'delete'])).message).toBe('unknown command: merchant delete');
    expect(usageErrorOf(() => resolveInvocation(['merchant', 'create', '--name', 'A'])).message).toBe('missing option --orders');
  });

  it('looks for --json only before a `--` terminator', () => {
    expect(wantsJson(['limit', 'show', '--json'])).toBe(true);
    expect(wantsJson(['address', 'add', '--', '--json'])).toBe(false);
  });
});
