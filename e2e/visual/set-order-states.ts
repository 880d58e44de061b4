/**
 * Test support for the Playwright specs (never part of the app): puts orders of the running service's database into
 * the state a checkout screenshot needs, in one process: `paid` (as a confirmed payment leaves it), `expired` (its
 * window just over) or `gone` (closed over a day ago).
 *
 *   npx tsx e2e/visual/set-order-states.ts <payToken>=<paid|expired|gone> ...
 */
import { sql } from 'drizzle-orm';
import { closeDb, getDb } from '../../lib/db/client';
import { resolveDatabase } from '../../lib/db/connect';

const changes = process.argv.slice(2).map((argument) => argument.split('='));
if (changes.length === 0 || changes.some(([token, state]) => !token || !['paid', 'expired', 'gone'].includes(state ?? ''))) {
  process.stderr.write('usage: set-order-states.ts <payToken>=<paid|expired|gone> ...\n');
  process.exit(1);
}
const database = await resolveDatabase({ owner: false, migrate: false, log: () => undefined });
try {
  for (const [payToken, state] of changes) {
    const result =
      state === 'paid'
        ? await getDb().execute(sql`UPDATE orders SET status = 'paid', paid_at = now() WHERE pay_token = ${payToken}`)
        : await getDb().execute(sql`UPDATE orders SET expires_at = now() - ${state === 'gone' ? '2 days' : '1 minute'}::interval WHERE pay_token = ${payToken}`);
    if (result.rowCount !== 1) throw new Error(`no order with pay token ${payToken}`);
  }
} finally {
  await closeDb();
  if (database.embedded?.startedHere) await database.embedded.stop();
}
