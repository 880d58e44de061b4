import { parseArgs } from 'node:util';
import { UsageError } from './usage-error';

export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
}
export type OptionSpecs = Record<string, OptionSpec>;

/** Accepted by every command. */
export const COMMON_OPTIONS: OptionSpecs = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

/** A command's arguments after parsing: options by long name, positionals in order. */
export class ParsedArgs {
  constructor(
    private readonly values: ReadonlyMap<string, string | true>,
    readonly positionals: readonly string[],
    private readonly usage?: string,
  ) {}

  flag(name: string): boolean {
    return this.values.get(name) === true;
  }

  optional(name: string): string | undefined {
    const value = this.values.get(name);
    return typeof value === 'string' ? value : undefined;
  }

  required(name: string): string {
    const value = this.optional(name);
    if (value === undefined) throw new UsageError(`missing option --${name}`, this.usage);
    return value;
  }

  /** Exactly `names.length` positionals, named in the error when one is missing or extra. */
  expectPositionals(...names: string[]): string[] {
    if (this.positionals.length < names.length) {
      throw new UsageError(`missing argument <${names[this.positionals.length]}>`, this.usage);
    }
    if (this.positionals.length > names.length) {
      throw new UsageError(`unexpected argument: ${this.positionals[names.length]}`, this.usage);
    }
    return [...this.positionals];
  }

  fail(message: string): never {
    throw new UsageError(message, this.usage);
  }
}

/**
 * Parses a command's argv with node:util parseArgs, then checks each option itself so that every error names the
 * option: unknown options, a string option without a value (`--name` last, or followed by another `--option`),
 * a value given to a flag (`--json=1`), an option given twice.
 */
export function parseCommandArgs(argv: readonly string[], options: OptionSpecs, usage?: string): ParsedArgs {
  const specs: OptionSpecs = { ...COMMON_OPTIONS, ...options };
  const { tokens } = parseArgs({ args: [...argv], options: specs, strict: false, allowPositionals: true, tokens: true });
  const values = new Map<string, string | true>();
  const positionals: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'positional') {
      positionals.push(token.value);
      continue;
    }
    if (token.kind !== 'option') continue; // the `--` terminator
    const spec = specs[token.name];
    if (!spec) throw new UsageError(`unknown option ${token.rawName}`, usage);
    const longName = `--${token.name}`;
    if (values.has(token.name)) throw new UsageError(`option ${longName} is given more than once`, usage);
    if (spec.type === 'boolean') {
      if (token.value !== undefined) throw new UsageError(`option ${longName} takes no value`, usage);
      values.set(token.name, true);
    } else {
      const value = token.value;
      if (value === undefined || (!token.inlineValue && value.startsWith('--'))) {
        throw new UsageError(`option ${longName} needs a value`, usage);
      }
      values.set(token.name, value);
    }
  }
  return new ParsedArgs(values, positionals, usage);
}

/** `on` or `off`, for the option or argument named by `what`. */
export function parseOnOff(text: string, what: string, usage?: string): boolean {
  if (text === 'on') return true;
  if (text === 'off') return false;
  throw new UsageError(`${what} must be on or off, got ${JSON.stringify(text)}`, usage);
}
