import type { DatabaseTarget } from '../db/connect';
import { EXIT_OK, type CommandRun } from './command';
import { printResult, processStreams, reportError } from './output';

const log = (line: string) => process.stderr.write(`${line}\n`);

/**
 * Runs a validated command on DATABASE_URL, else on the embedded server — the running service's when there is one
 * (never stopped here), else one started for this command and stopped after it — and prints its output.
 */
export async function runOnDatabase(run: CommandRun, json: boolean): Promise<number> {
  // The database's modules (pg, drizzle, the embedded server) load only once a command is valid and runs.
  const [{ closeDb, getDb }, { resolveDatabase }] = await Promise.all([import('../db/client'), import('../db/connect')]);
  let database: DatabaseTarget | undefined;
  try {
    database = await resolveDatabase({ owner: false, migrate: true, log });
    printResult(processStreams, json, await run(getDb()));
    return EXIT_OK;
  } finally {
    await closeDb();
    if (database?.embedded?.startedHere) await database.embedded.stop();
  }
}

/**
 * Runs a CLI's main, reports a failure (as JSON when asked), then exits once the output is flushed (pipes are
 * asynchronous on some platforms) so that nothing left open (a pool, a timer) keeps the command from ending.
 */
export async function exitAfter(main: () => Promise<number>, json: boolean): Promise<never> {
  let exitCode: number;
  try {
    exitCode = await main();
  } catch (error) {
    exitCode = reportError(processStreams, json, error);
  }
  await Promise.all([process.stdout, process.stderr].map((stream) => new Promise((resolve) => stream.write('', resolve))));
  process.exit(exitCode);
}
