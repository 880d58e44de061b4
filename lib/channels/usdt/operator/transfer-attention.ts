import { and, desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { merchants, orders } from '../../../db/schema';
import { chainTransfers } from '../chain/schema';
import { ATTENTION_LIST_LIMIT, linkedOrder, linkedOrderColumns, notDismissed, type LinkedOrder, type TransferItem } from '../../attention-items';
import { centsToRaw } from '../evm/evm-amounts';
import { usdtChainNamed } from '../usdt-chains';

/** A raw token value in USDT: 6 decimals (TRC20, ERC20, Polygon) unless the chain says otherwise (BEP20: 18). */
export function formatRawUsdt(raw: string | bigint, decimals = 6): string {
  const value = BigInt(raw);
  const scale = 10n ** BigInt(decimals);
  const whole = value / scale;
  const fraction = (value % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return fraction.length >= 2 ? `${whole}.${fraction}` : `${whole}.${fraction.padEnd(2, '0')}`;
}

/** What the order asked for, in the chain's raw units (its amount is written with two decimals: cents). */
function dueRaw(order: LinkedOrder, decimals: number): bigint {
  return centsToRaw(BigInt(order.payAmount.replace('.', '')), decimals);
}

function transferProblem(verdict: string, valueRaw: bigint, order: LinkedOrder | null, decimals: number): TransferItem['problem'] {
  if (verdict === 'no_order') return 'unmatched';
  if (verdict === 'late') return 'late';
  if (!order) return 'wrong_amount';
  return valueRaw < dueRaw(order, decimals) ? 'short' : 'over';
}

/** The USDT transfers the chain watchers read that paid nothing (no order open, a short/over amount, late), not dismissed. */
export async function listTransferItems(db: Database): Promise<TransferItem[]> {
  const rows = await db
    .select({
      id: chainTransfers.id,
      chain: chainTransfers.chain,
      verdict: chainTransfers.verdict,
      valueRaw: chainTransfers.valueRaw,
      transactionId: chainTransfers.transactionId,
      fromAddress: chainTransfers.fromAddress,
      toAddress: chainTransfers.toAddress,
      blockTime: chainTransfers.blockTime,
      ...linkedOrderColumns,
    })
    .from(chainTransfers)
    .leftJoin(orders, eq(orders.id, chainTransfers.orderId))
    .leftJoin(merchants, eq(merchants.id, orders.merchantId))
    .where(and(sql`${chainTransfers.verdict} IN ('no_order', 'wrong_amount', 'late')`, notDismissed('transfer', chainTransfers.id)))
    .orderBy(desc(chainTransfers.id))
    .limit(ATTENTION_LIST_LIMIT);
  return rows.map((row) => {
    const order = linkedOrder(row);
    const decimals = usdtChainNamed(row.chain)?.decimals ?? 6;
    const problem = transferProblem(row.verdict, BigInt(row.valueRaw), order, decimals);
    return {
      id: row.id,
      chain: row.chain,
      verdict: row.verdict,
      problem,
      amount: formatRawUsdt(row.valueRaw, decimals),
      shortBy: problem === 'short' && order ? formatRawUsdt(dueRaw(order, decimals) - BigInt(row.valueRaw), decimals) : null,
      transactionId: row.transactionId,
      fromAddress: row.fromAddress,
      toAddress: row.toAddress,
      blockTime: row.blockTime,
      order,
    };
  });
}
