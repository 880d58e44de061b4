import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { orders, receivingAddresses, type OrderRow } from '../../db/schema';
import { formatMinorUnits } from '../../money/decimal-amount';
import { chainTransfers } from './chain/schema';
import { networkName } from './checkout-network';
import { explorerTransactionUrl } from './explorer-links';
import { rawUnitsPerCent } from './evm/evm-amounts';
import { formatRawUsdt } from './operator/transfer-attention';
import { usdtChainByType, usdtChainNamed } from './usdt-chains';
import type { OrderPaymentTrail, PaymentTrailTransfer } from '../channel';

/** The transfers the chain watcher linked to an order without letting them pay it: a wrong amount, or too late. */
const UNPAID_VERDICTS = ['wrong_amount', 'late'] as const;

/**
 * The transfers to an order's address that the watcher linked to it and that did not pay it, oldest first: what the
 * payer sent, from where, in which transaction, and how it differs from what was due (short of it, over it, late).
 */
export async function unpaidOrderTransfers(db: Database, order: Pick<OrderRow, 'id' | 'payAmountMinor'>): Promise<PaymentTrailTransfer[]> {
  const rows = await db
    .select()
    .from(chainTransfers)
    .where(and(eq(chainTransfers.orderId, order.id), inArray(chainTransfers.verdict, [...UNPAID_VERDICTS])))
    .orderBy(asc(chainTransfers.blockTime), asc(chainTransfers.id));
  return rows.map((row) => {
    const decimals = usdtChainNamed(row.chain)?.decimals ?? 6;
    const raw = BigInt(row.valueRaw);
    const cents = raw / rawUnitsPerCent(decimals); // in cents, rounded down: what the chain sent, never more
    const due = order.payAmountMinor;
    const problem = row.verdict === 'late' ? 'late' : cents < due ? 'short' : 'over';
    return {
      amount: formatRawUsdt(raw, decimals),
      from: row.fromAddress,
      transactionId: row.transactionId,
      explorerUrl: explorerTransactionUrl(row.chain, row.transactionId) ?? null,
      blockTime: row.blockTime,
      problem,
      shortBy: problem === 'short' ? formatMinorUnits(due - cents) : null,
    };
  });
}

/** What a USDT order's page shows of its payment: the network, the receiving address, who paid in which transaction, and every transfer that did not pay it. */
export async function usdtPaymentTrail(db: Database, order: OrderRow): Promise<OrderPaymentTrail | undefined> {
  const [row] = await db
    .select({ address: receivingAddresses.address })
    .from(orders)
    .innerJoin(receivingAddresses, eq(receivingAddresses.id, orders.receivingAddressId))
    .where(eq(orders.id, order.id))
    .limit(1);
  if (!row) return undefined;
  const chain = usdtChainByType(order.chainType ?? '1') ?? usdtChainByType('1')!;
  const paidOnChain = order.status === 'paid' && order.tradeNo;
  return {
    network: { en: networkName(chain, 'en'), zh: networkName(chain, 'zh') },
    receivingAddress: row.address,
    payer: order.payer,
    transaction: paidOnChain ? { id: order.tradeNo!, explorerUrl: explorerTransactionUrl(chain.name, order.tradeNo!) ?? null } : null,
    unpaidTransfers: await unpaidOrderTransfers(db, order),
  };
}
