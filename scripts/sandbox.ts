/**
 * npm run sandbox -- <upstream> <action> [options] [--json]: act as the outside world of the built-in upstream
 * simulators (a payer paying, a callback being sent). Each simulator brings its own commands from sandbox/<upstream>/cli.ts.
 * Uses DATABASE_URL, else the embedded server (the running service's when there is one), and reaches the service at the
 * address it recorded there at start (PUBLIC_BASE_URL overrides). Refused where the sandbox is off.
 * Exit codes: 0 done, 1 usage or input error, 2 unexpected failure.
 */
import { parseCommandArgs } from '../lib/cli/args';
import { EXIT_OK, UsageError, type CliCommand } from '../lib/cli/command';
import { printResult, processStreams } from '../lib/cli/output';
import { wantsJson } from '../lib/cli/registry';
import { exitAfter, runOnDatabase } from '../lib/cli/run-cli';
import { settleRuntimeMode } from '../lib/config/runtime-mode';
import { sandboxEnabled } from '../lib/sandbox/sandbox-enabled';
import { adoptServiceBaseUrl } from '../lib/settings/service-address';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Every simulator's commands: each sandbox/<upstream>/cli.ts exports its own `sandboxCommands`, so a new simulator
 * registers itself in its folder. A cli.ts without that export stops the CLI, naming the file.
 */
async function simulatorCommands(): Promise<CliCommand[]> {
  const root = fileURLToPath(new URL('../sandbox/', import.meta.url));
  const files = readdirSync(root, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(`${root}${entry.name}/cli.ts`))
    .map((entry) => `${root}${entry.name}/cli.ts`)
    .sort();
  const modules = await Promise.all(files.map(async (file) => ({ file, module: (await import(pathToFileURL(file).href)) as { sandboxCommands?: readonly CliCommand[] } })));
  return modules.flatMap(({ file, module }) => {
    if (!module.sandboxCommands) throw new Error(`${file} must export sandboxCommands (its simulator's commands)`);
    return [...module.sandboxCommands];
  });
}

const COMMANDS: readonly CliCommand[] = await simulatorCommands();

const argv = process.argv.slice(2);
settleRuntimeMode(!process.env.DATABASE_URL); // before any option is checked: on a DATABASE_URL this is production

function usage(): string {
  const width = Math.max(...COMMANDS.map((command) => `${command.group} ${command.action}`.length));
  const lines = COMMANDS.map((command) => `  ${`${command.group} ${command.action}`.padEnd(width)}  ${command.summary}`);
  return ['usage: npm run sandbox -- <upstream> <action> [options] [--json]', '', 'commands:', ...lines, '', 'Run `npm run sandbox -- <upstream> <action> --help` for details.'].join('\n');
}

async function main(): Promise<number> {
  const [group, action, ...rest] = argv;
  const json = wantsJson(argv);
  if (group === undefined || group === '--help' || group === '-h' || group === 'help') {
    printResult(processStreams, json, { json: { usage: usage() }, text: usage() });
    return EXIT_OK;
  }
  const command = COMMANDS.find((candidate) => candidate.group === group && candidate.action === action);
  if (!command) throw new UsageError(`unknown command: ${[group, action].filter(Boolean).join(' ')}`, usage());
  const args = parseCommandArgs(rest, command.options, command.usage);
  if (args.flag('help')) {
    printResult(processStreams, json, { json: { usage: command.usage }, text: command.usage });
    return EXIT_OK;
  }
  const run = command.prepare(args);
  if (!sandboxEnabled()) throw new UsageError('the sandbox is off here (NODE_ENV=production without SANDBOX_ENABLED=true)');
  // The simulators call the service back (notifications, return pages): at the address the running service recorded.
  return runOnDatabase(async (db) => {
    await adoptServiceBaseUrl(db);
    return run(db);
  }, json);
}

await exitAfter(main, wantsJson(argv));
