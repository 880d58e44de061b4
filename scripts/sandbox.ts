/**
 * npm run sandbox -- <upstream> <action> [options] [--json]: act as the outside world of the built-in upstream
 * simulators (a payer paying, a callback being sent). Each simulator brings its own commands from sandbox/<upstream>/cli.ts.
 * Uses DATABASE_URL, else the embedded server (the running service's when there is one), and reaches the service at the
 * address it recorded there at start (PUBLIC_BASE_URL overrides). Refused where the sandbox is off.
 * Exit codes: 0 done, 1 usage or input error, 2 unexpected failure.
 */
import { parseCommandArgs } from '../lib/cli/args';
import { EXIT_OK, type CliCommand } from '../lib/cli/command';
import { UsageError } from '../lib/cli/usage-error';
import { printResult, processStreams } from '../lib/cli/output';
import { wantsJson } from '../lib/cli/registry';
import { exitAfter, runOnDatabase } from '../lib/cli/run-cli';
import { settleRuntimeMode } from '../lib/config/runtime-mode';
import { sandboxEnabled } from '../lib/sandbox/sandbox-enabled';
import { adoptServiceBaseUrl } from '../lib/settings/service-address';

/**
 * The simulators, each with the commands of its sandbox/<upstream>/cli.ts (its `sandboxCommands`). A command loads
 * only its own simulator; the listing (`--help`) loads them all. A new simulator adds its line here.
 */
const SIMULATORS: Readonly<Record<string, () => Promise<{ sandboxCommands: readonly CliCommand[] }>>> = {
  alipay: () => import('../sandbox/alipay/cli'),
  evm: () => import('../sandbox/evm/cli'),
  tron: () => import('../sandbox/tron/cli'),
  wechat: () => import('../sandbox/wechat/cli'),
  yht: () => import('../sandbox/yht/cli'),
};

async function commandsOf(groups: readonly string[]): Promise<CliCommand[]> {
  const modules = await Promise.all(groups.map((group) => SIMULATORS[group]!()));
  return modules.flatMap((module) => [...module.sandboxCommands]);
}

const argv = process.argv.slice(2);
settleRuntimeMode(!process.env.DATABASE_URL); // before any option is checked: on a DATABASE_URL this is production

async function usage(): Promise<string> {
  const commands = await commandsOf(Object.keys(SIMULATORS));
  const width = Math.max(...commands.map((command) => `${command.group} ${command.action}`.length));
  const lines = commands.map((command) => `  ${`${command.group} ${command.action}`.padEnd(width)}  ${command.summary}`);
  return ['usage: npm run sandbox -- <upstream> <action> [options] [--json]', '', 'commands:', ...lines, '', 'Run `npm run sandbox -- <upstream> <action> --help` for details.'].join('\n');
}

async function main(): Promise<number> {
  const [group, action, ...rest] = argv;
  const json = wantsJson(argv);
  if (group === undefined || group === '--help' || group === '-h' || group === 'help') {
    const text = await usage();
    printResult(processStreams, json, { json: { usage: text }, text });
    return EXIT_OK;
  }
  const simulatorCommands = Object.hasOwn(SIMULATORS, group) ? await commandsOf([group]) : [];
  const command = simulatorCommands.find((candidate) => candidate.action === action);
  if (!command) throw new UsageError(`unknown command: ${[group, action].filter(Boolean).join(' ')}`, await usage());
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
