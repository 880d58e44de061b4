import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { aMerchant, receivingAddresses } from '../../test/factories';
import { createMerchant, findMerchantForSigning } from '../merchants/merchants';
import { createUsdtOrder } from '../channels/usdt/create-usdt-order';
import { findMerchantOrder } from '../orders/find-order';
import { getUsdtMaxPerOrderMinor, setUsdtMaxPerOrderMinor } from '../channels/usdt/max-per-order';
import { getDb, type Database } from './client';
import { prepared } from './prepared';

class Rollback extends Error {}

/** Runs `work` in a transaction that is rolled back afterwards. */
async function inRolledBackTransaction(work: (tx: Database) => Promise<void>): Promise<void> {
  await getDb()
    .transaction(async (transaction) => {
      await work(transaction as unknown as Database);
      throw new Rollback();
    })
    .catch((error: unknown) => {
      if (!(error instanceof Rollback)) throw error;
    });
}

describe('prepared statements', () => {
  it('are built once per database handle', () => {
    const db = getDb();
    let builds = 0;
    const build = () => ({ built: (builds += 1) });
    const first = prepared(db, 'test_statement', build);
    expect(prepared(db, 'test_statement', build)).toBe(first);
    expect(builds).toBe(1);
  });

  it('run on the transaction connection when given a transaction', async () => {
    await receivingAddresses(1);
    const outside = await aMerchant();
    // Warm the pool's statements first: a transaction must not pick them up (they run on other connections).
    expect(await findMerchantForSigning(getDb(), outside.appId)).toBeDefined();

    let appId = '';
    await inRolledBackTransaction(async (tx) => {
      const { merchant } = await createMerchant(tx, { name: 'In a transaction', orderPermission: true });
      appId = merchant.appId;
      expect((await findMerchantForSigning(tx, appId))?.merchant.id).toBe(merchant.id);
      expect(await findMerchantForSigning(getDb(), appId)).toBeUndefined(); // not committed

      await setUsdtMaxPerOrderMinor(tx, 500n);
      expect(await getUsdtMaxPerOrderMinor(tx)).toBe(500n);
      expect(await getUsdtMaxPerOrderMinor(getDb())).not.toBe(500n);

      // The raw statements (expired slots, free slots) and the insert, all on the transaction.
      const { order } = await createUsdtOrder(tx, merchant.id, { merchantOrderNo: 'TX-1', amountMinor: 300n, chainType: '1' });
      expect(order.payAmountMinor).toBe(300n);
      // Another merchant's (one merchant may hold only half of an amount's slots): the first order holds the slot,
      // seen inside the transaction, and so do the fair-share counts.
      const { merchant: other } = await createMerchant(tx, { name: 'Another in a transaction', orderPermission: true });
      const second = await createUsdtOrder(tx, other.id, { merchantOrderNo: 'TX-2', amountMinor: 300n, chainType: '1' });
      expect(second.order.payAmountMinor).toBe(301n);
      await expect(createUsdtOrder(tx, merchant.id, { merchantOrderNo: 'TX-3', amountMinor: 300n, chainType: '1' })).rejects.toMatchObject({ kind: 'pool_share_exceeded' });
      expect((await findMerchantOrder(tx, merchant.id, 'TX-1'))?.id).toBe(order.id);
      expect(await findMerchantOrder(getDb(), merchant.id, 'TX-1')).toBeUndefined();
    });

    expect(await findMerchantForSigning(getDb(), appId)).toBeUndefined();
    const { rows } = await getDb().execute<{ count: number }>(sql`SELECT count(*)::int AS count FROM orders`);
    expect(rows[0]!.count).toBe(0);
  });
});
