/**
 * The arguments of an entry point that takes none but a few flags (`npm run worker`, `npm run db:migrate`,
 * `npm start`): `--help` prints its usage and exits 0, any other argument it does not know is refused, named, with
 * exit 1. Both before the command loads or starts anything: asking the migration command for help must not migrate,
 * and a mistyped flag must not start a worker that silently ignores it.
 */
export function settleEntryArguments(argv: readonly string[], usage: string, flags: readonly string[] = []): void {
  if (argv.some((argument) => argument === '--help' || argument === '-h')) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  const unknown = argv.find((argument) => !flags.includes(argument));
  if (unknown === undefined) return;
  process.stderr.write(`unknown argument ${JSON.stringify(unknown)}\n\n${usage}\n`);
  process.exit(1);
}
