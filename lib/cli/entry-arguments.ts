import { parseCommandArgs, type OptionSpecs, type ParsedArgs } from './args';
import { processStreams, reportError } from './output';

/**
 * The arguments of an entry point that takes none but a few flags (`npm run worker`, `npm run db:migrate`,
 * `npm start`), parsed as the admin CLI parses its commands': `--help` prints the usage and exits 0, an unknown
 * option, a value or a positional is refused by name with exit 1. Both before the command loads or starts anything:
 * asking the migration command for help must not migrate, and a mistyped flag must not start a worker that silently
 * ignores it. `--json`, which every admin command takes, means nothing here and is refused too. Returns the parsed
 * flags.
 */
export function settleEntryArguments(argv: readonly string[], usage: string, flags: OptionSpecs = {}): ParsedArgs {
  try {
    const args = parseCommandArgs(argv, flags, usage);
    if (args.flag('help')) {
      process.stdout.write(`${usage}\n`);
      process.exit(0);
    }
    if (args.flag('json')) args.fail('unknown option --json');
    args.expectPositionals();
    return args;
  } catch (error) {
    process.exit(reportError(processStreams, false, error));
  }
}
