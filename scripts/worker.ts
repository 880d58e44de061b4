/** npm run worker: the background workers apart from the web process (web nodes then set WORKERS=off). */
import { closeDb, getDb } from '../lib/db/client';
import { reportStartupRefusals } from '../lib/config/startup-refusal';
import { resolveDatabase } from '../lib/db/connect';
import { CHANNELS } from '../lib/channels';
import { startBackgroundWorkers } from '../lib/workers/background-workers';

reportStartupRefusals();
for (const channel of CHANNELS) channel.checkSettings?.(); // a malformed channel setting stops the worker here, not at its first run

const log = (line: string) => console.log(line);
const database = await resolveDatabase({ owner: false, log });
const workers = await startBackgroundWorkers(getDb(), database.url, log);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  log(`${signal}: finishing attempts in flight`);
  await workers.stop();
  await closeDb();
  if (database.embedded?.startedHere) await database.embedded.stop();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
