import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { signUpMerchant } from '../accounts/sign-up-merchant';
import { getDb } from '../db/client';
import { isDomainError } from '../errors/domain-error';
import { receivingAddresses } from '../../test/factories';
import { aPendingUsdtOrder, payOrder } from '../../test/paid-orders';
import { listMerchantOrders } from './list-merchant-orders';
import { merchantContextOf, type MerchantContext } from './merchant-context';
import { parseOrderFilters } from './order-filters';
import { listOrderRefunds, recordWalletRefundFromPortal, refundFromPortal } from './order-refunds';

const PASSWORD = 'correct horse battery';
const TX = 'a'.repeat(64);
let context: MerchantContext;

beforeAll(async () => {
  await receivingAddresses(2);
  const { accountId } = await signUpMerchant(getDb(), { merchantName: 'Refund shop', email: `refunds-${process.pid}-${Date.now()}@example.com`, password: PASSWORD, clientAddress: '192.0.2.77', now: new Date() });
  context = (await merchantContextOf(getDb(), accountId))!;
});

async function aPaidUsdtOrder() {
  const order = await aPendingUsdtOrder(context.merchantId, 'http://127.0.0.1:9/notify', { amountMinor: 2000n });
  await payOrder(order.id, new Date(), `tx-${order.id}`);
  return order;
}

const refusalOf = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => (isDomainError(error) ? [error.kind, error.message] : error));

describe('refunds in the portal', () => {
  it('a USDT refund is not made by the service: the form refuses it and says how; the wallet record is kept, audited, and counted', async () => {
    const order = await aPaidUsdtOrder();
    const now = new Date();
    expect(await refusalOf(refundFromPortal(getDb(), context, { orderNo: order.orderNo, amount: '5.00', reason: '', password: PASSWORD, now }))).toEqual([
      'refund_not_offered',
      expect.stringContaining('send the USDT from your own wallet, then record the refund'),
    ]);

    const recorded = await recordWalletRefundFromPortal(getDb(), context, { orderNo: order.orderNo, amount: '5.00', transactionId: TX, note: 'sent back', password: PASSWORD, now });
    expect(recorded.refund).toMatchObject({ state: 'succeeded', amountMinor: 500n, upstreamRefundId: TX, reason: 'sent back', createdBy: `account:${context.email}` });
    const view = await listOrderRefunds(getDb(), context, order.orderNo);
    expect(view).toMatchObject({ refundable: false, refundedAmount: '5.00', leftAmount: '15.00', refunds: [{ amount: '5.00', state: 'succeeded', upstreamRefundId: TX }] });
    const { rows } = await getDb().execute<{ actor: string; action: string }>(sql`SELECT actor, action FROM audit_log WHERE subject = ${`order:${order.orderNo}`} ORDER BY id`);
    expect(rows.filter((row) => row.action === 'refund.record')).toEqual([{ actor: `account:${context.email}`, action: 'refund.record' }]);

    const refunded = await listMerchantOrders(getDb(), context, parseOrderFilters({ status: 'refunded' }));
    expect(refunded.rows.map((row) => row.orderNo)).toContain(order.orderNo);
  });

  it('asks for the password again, and never records more than was paid', async () => {
    const order = await aPaidUsdtOrder();
    const now = new Date();
    expect(await refusalOf(recordWalletRefundFromPortal(getDb(), context, { orderNo: order.orderNo, amount: '1.00', transactionId: TX, note: '', password: 'wrong password', now }))).toEqual([
      'password_rejected',
      expect.any(String),
    ]);
    expect(await refusalOf(recordWalletRefundFromPortal(getDb(), context, { orderNo: order.orderNo, amount: '20.01', transactionId: TX, note: '', password: PASSWORD, now }))).toEqual([
      'refund_exceeds_paid',
      'the refund exceeds what is left to refund: 20.00',
    ]);
    expect(await refusalOf(recordWalletRefundFromPortal(getDb(), context, { orderNo: order.orderNo, amount: '1.00', transactionId: 'not-a-tx', note: '', password: PASSWORD, now }))).toEqual([
      'invalid_parameter',
      expect.stringContaining('transactionId'),
    ]);
    expect((await listOrderRefunds(getDb(), context, order.orderNo)).refunds).toHaveLength(0);
  });
});
