/** npm run db:migrate: applies pending migrations to DATABASE_URL, or to the embedded server. */
import { settleEntryArguments } from '../lib/cli/entry-arguments';

const USAGE = [
  'usage: npm run db:migrate',
  '',
  'Applies the pending migrations to DATABASE_URL, or to the embedded PostgreSQL when it is not set. It takes no arguments.',
].join('\n');
settleEntryArguments(process.argv.slice(2), USAGE); // before anything loads or touches a database

const { resolveDatabase } = await import('../lib/db/connect');
const { reportStartupRefusals } = await import('../lib/config/startup-refusal');

reportStartupRefusals();

const database = await resolveDatabase({ migrate: true });
console.log(`migrations applied (${database.embedded ? 'embedded PostgreSQL' : 'DATABASE_URL'})`);
if (database.embedded?.startedHere) await database.embedded.stop();
