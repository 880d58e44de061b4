import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { getDb } from '../lib/db/client';
import { aMerchant, receivingAddresses } from './factories';
import { startMerchantReceiver } from './beds/merchant-receiver';

/**
 * The setup of notification tests: a merchant with two receiving addresses and its receiver, started once per file.
 * With `isolateEachTest`, every test starts with no notification pending (earlier tests' retries cannot become due
 * under its clock) and a receiver that answers `success`.
 */
export function notificationTestBed(options: { isolateEachTest: boolean }) {
  const bed = {} as { merchant: Awaited<ReturnType<typeof aMerchant>>; receiver: Awaited<ReturnType<typeof startMerchantReceiver>> };
  beforeAll(async () => {
    bed.merchant = await aMerchant();
    await receivingAddresses(2);
    bed.receiver = await startMerchantReceiver((appId) => (appId === bed.merchant.appId ? bed.merchant.appSecret : undefined));
  });
  afterAll(() => bed.receiver.close());
  if (options.isolateEachTest) {
    beforeEach(async () => {
      await getDb().execute(sql`UPDATE notifications SET status = 'superseded' WHERE status = 'pending'`);
      bed.receiver.received.length = 0;
      bed.receiver.answer((_received, res) => res.end('success'));
    });
  }
  return bed;
}
