/** npm run db:migrate: applies pending migrations to DATABASE_URL, or to the embedded server. */
import { resolveDatabase } from '../lib/db/connect';
import { reportStartupRefusals } from '../lib/config/startup-refusal';

reportStartupRefusals();

const database = await resolveDatabase({ migrate: true });
console.log(`migrations applied (${database.embedded ? 'embedded PostgreSQL' : 'DATABASE_URL'})`);
if (database.embedded?.startedHere) await database.embedded.stop();
