/**
 * npm run admin -- <command> [options] [--json]: the operator CLI (merchants, receiving addresses, limits).
 * Runs on DATABASE_URL, else on the embedded server: the running service's when there is one (found through its
 * postmaster.pid, never stopped here), else one started for this command and stopped after it.
 * Exit codes: 0 done, 1 usage or input error, 2 unexpected failure. `npm run admin -- --help` lists the commands.
 */
import { EXIT_OK } from '../lib/cli/command';
import { printResult, processStreams } from '../lib/cli/output';
import { COMMANDS, commandName, resolveInvocation, wantsJson } from '../lib/cli/registry';
import { exitAfter, runOnDatabase } from '../lib/cli/run-cli';
import { settleRuntimeMode } from '../lib/config/runtime-mode';
import { redirectLog } from '../lib/observability/log-destination';

const argv = process.argv.slice(2);
settleRuntimeMode(!process.env.DATABASE_URL); // before any option is checked: on a DATABASE_URL this is production
// With --json, stdout is the one JSON object: what the command logs meanwhile (an upstream's refusal) goes to stderr.
if (wantsJson(argv)) redirectLog(process.stderr);

async function main(): Promise<number> {
  const invocation = resolveInvocation(argv); // validates everything it can before a database is touched
  if (invocation.kind === 'help') {
    const commands = invocation.command ? undefined : COMMANDS.map((command) => ({ command: commandName(command), summary: command.summary }));
    printResult(processStreams, invocation.json, { json: { usage: invocation.text, ...(commands && { commands }) }, text: invocation.text });
    return EXIT_OK;
  }
  return runOnDatabase(invocation.run, invocation.json);
}

await exitAfter(main, wantsJson(argv));
