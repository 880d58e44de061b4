import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aMerchant, aTronAddress } from '../../../test/factories';
import { capturingDatabase, explainAnalyze, indexScans } from '../../../test/plan-inspector';
import { createUsdtOrder } from './create-usdt-order';
import { addReceivingAddresses } from './receiving-addresses';
import { ownConnection } from '../../../test/own-connection';

/**
 * A submit looks for a free slot address by address, in id order, and stops at the first free one. PostgreSQL does
 * so only when it knows how many addresses the pool holds: without statistics on receiving_addresses it plans for a
 * handful, reads every enabled address of the chain and probes the slot index once for each (50 probes per order
 * with 50 addresses, 500 with 500). Autovacuum does not help a pool of fewer than 50 changes (its analyse threshold),
 * so the pool's own writes keep the statistics current.
 */

const POOL_SIZE = 50;
const SLOT_INDEX = 'orders_usdt_slot_holder_key';

let capturing: ReturnType<typeof capturingDatabase>;
let explainer: pg.Client;

beforeAll(async () => {
  capturing = capturingDatabase(process.env.DATABASE_URL!);
  explainer = await ownConnection();
});

afterAll(async () => {
  await capturing?.close();
  await explainer?.end();
});

/** The slot-index probes of the submit's batched insert, read from its plan when run again (explainAnalyze). */
async function slotProbesOfOneSubmit(merchantId: number, merchantOrderNo: string): Promise<number> {
  const statements = await capturing.capture(() =>
    createUsdtOrder(capturing.db, merchantId, { merchantOrderNo, amountMinor: 1234n, chainType: '1', notifyUrl: 'https://m.example/n' }),
  );
  const insert = statements.find((statement) => statement.text.includes('CROSS JOIN LATERAL'));
  expect(insert, 'the submit went through the batched insert').toBeDefined();
  // The order keeps its slot under other unique keys, so that the statement run again inserts instead of finding it.
  await explainer.query(
    `UPDATE orders SET merchant_order_no = merchant_order_no || '-kept', order_no = order_no || 'K', pay_token = pay_token || 'K'
     WHERE merchant_id = $1 AND merchant_order_no = $2`,
    [merchantId, merchantOrderNo],
  );
  return indexScans(await explainAnalyze(explainer, insert!), SLOT_INDEX);
}

describe('a submit probes the slot index once per address it tries', () => {
  it('after the operator adds a pool: two probes, not one per address', async () => {
    const merchant = await aMerchant();
    await addReceivingAddresses(capturing.db, 'TRC20', Array.from({ length: POOL_SIZE }, aTronAddress), { actor: 'test' });

    // The statement is explained after it ran: the first address now holds its own order's slot, the second is free.
    expect(await slotProbesOfOneSubmit(merchant.id, 'PROBE-1')).toBe(2);
  });
});
