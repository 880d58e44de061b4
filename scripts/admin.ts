/**
 * npm run admin -- <command> [options] [--json]: the operator CLI (merchants, receiving addresses, limits).
 * Runs on DATABASE_URL, else on the embedded server: the running service's when there is one (found through its
 * postmaster.pid, never stopped here), else one started for this command and stopped after it.
 * Exit codes: 0 done, 1 usage or input error, 2 unexpected failure. `npm run admin -- --help` lists the commands.
 */
import { closeDb, getDb } from '../lib/db/client';
import { resolveDatabase, type DatabaseTarget } from '../lib/db/connect';
import { EXIT_OK } from '../lib/cli/command';
import { printResult, processStreams, reportError } from '../lib/cli/output';
import { COMMANDS, commandName, resolveInvocation, wantsJson } from '../lib/cli/registry';

const argv = process.argv.slice(2);
const log = (line: string) => process.stderr.write(`${line}\n`);

async function main(): Promise<number> {
  const invocation = resolveInvocation(argv); // validates everything it can before a database is touched
  if (invocation.kind === 'help') {
    const commands = invocation.command ? undefined : COMMANDS.map((command) => ({ command: commandName(command), summary: command.summary }));
    printResult(processStreams, invocation.json, { json: { usage: invocation.text, ...(commands && { commands }) }, text: invocation.text });
    return EXIT_OK;
  }
  let database: DatabaseTarget | undefined;
  try {
    database = await resolveDatabase({ owner: false, migrate: true, log });
    printResult(processStreams, invocation.json, await invocation.run(getDb()));
    return EXIT_OK;
  } finally {
    await closeDb();
    if (database?.embedded?.startedHere) await database.embedded.stop();
  }
}

let exitCode: number;
try {
  exitCode = await main();
} catch (error) {
  exitCode = reportError(processStreams, wantsJson(argv), error);
}
// Exit explicitly once the output is flushed (pipes are asynchronous on some platforms), so that nothing left
// open (a pool, a timer) keeps the command from ending.
await Promise.all([process.stdout, process.stderr].map((stream) => new Promise((resolve) => stream.write('', resolve))));
process.exit(exitCode);
