import { and, desc, eq, notInArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { attentionDismissals, merchants, notifications, orders, upstreamCallbacks } from '../db/schema';
import { chainTransfers } from '../channels/usdt/chain/schema';
import { UNEVENTFUL_VERDICTS } from '../channels/list-upstream-callbacks';
import { formatMinorUnits } from '../money/decimal-amount';
import { usdtChainNamed } from '../channels/usdt/usdt-chains';

/**
 * The payments that need an operator: chain transfers that paid nothing (no order open, a short/over amount, the
 * exact amount after the window), upstream callbacks that failed verification or did not match, and notifications
 * that failed every attempt (with no newer cycle). An item leaves the list when an operator dismisses it (with a
 * note) or, for notifications, resends it.
 */

export const ATTENTION_KINDS = ['transfer', 'callback', 'notification'] as const;
export type AttentionKind = (typeof ATTENTION_KINDS)[number];

export const TRANSFER_ATTENTION_VERDICTS = ['no_order', 'wrong_amount', 'late'] as const;

const LIST_LIMIT = 200;

/** A raw token value in USDT: 6 decimals (TRC20, ERC20, Polygon) unless the chain says otherwise (BEP20: 18). */
export function formatRawUsdt(raw: string | bigint, decimals = 6): string {
  const value = BigInt(raw);
  const scale = 10n ** BigInt(decimals);
  const whole = value / scale;
  const fraction = (value % scale).toString().padStart(decimals, '0').replace(/0+$/, '');
  return fraction.length >= 2 ? `${whole}.${fraction}` : `${whole}.${fraction.padEnd(2, '0')}`;
}

export interface LinkedOrder {
  orderNo: string;
  merchantOrderNo: string;
  appId: string;
  status: string;
  payAmount: string;
}

export interface TransferItem {
  id: number;
  /** The USDT chain the transfer was on (TRC20, ERC20, BEP20, POLYGON). */
  chain: string;
  verdict: string;
  /** What the operator reads: unmatched (no order open), short, over, late, or wrong amount (several orders open). */
  problem: 'unmatched' | 'short' | 'over' | 'late' | 'wrong_amount';
  amount: string;
  transactionId: string;
  fromAddress: string;
  toAddress: string;
  blockTime: Date;
  order: LinkedOrder | null;
}

export interface CallbackItem {
  id: number;
  channel: string;
  kind: string;
  verdict: string;
  detail: string | null;
  outTradeNo: string | null;
  tradeNo: string | null;
  receivedAt: Date;
  order: LinkedOrder | null;
}

export interface NotificationItem {
  id: number;
  cycle: number;
  attempts: number;
  lastError: string | null;
  failedAt: Date | null;
  notifyUrl: string | null;
  order: LinkedOrder;
}

const dismissed = (kind: AttentionKind, id: unknown) =>
  sql`NOT EXISTS (SELECT 1 FROM ${attentionDismissals} d WHERE d.kind = ${kind} AND d.item_id = ${id})`;

const linkedOrderColumns = {
  orderNo: orders.orderNo,
  merchantOrderNo: orders.merchantOrderNo,
  appId: merchants.appId,
  status: orders.status,
  payAmountMinor: orders.payAmountMinor,
};

function linkedOrder(row: { orderNo: string | null; merchantOrderNo: string | null; appId: string | null; status: string | null; payAmountMinor: bigint | null }): LinkedOrder | null {
  if (row.orderNo === null || row.appId === null) return null;
  return { orderNo: row.orderNo, merchantOrderNo: row.merchantOrderNo!, appId: row.appId, status: row.status!, payAmount: formatMinorUnits(row.payAmountMinor!) };
}

function transferProblem(verdict: string, valueRaw: bigint, order: LinkedOrder | null, decimals: number): TransferItem['problem'] {
  if (verdict === 'no_order') return 'unmatched';
  if (verdict === 'late') return 'late';
  if (!order) return 'wrong_amount';
  const due = BigInt(order.payAmount.replace('.', '')) * 10n ** BigInt(decimals - 2); // cents → raw
  return valueRaw < due ? 'short' : 'over';
}

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
    .where(and(sql`${chainTransfers.verdict} IN ('no_order', 'wrong_amount', 'late')`, dismissed('transfer', chainTransfers.id)))
    .orderBy(desc(chainTransfers.id))
    .limit(LIST_LIMIT);
  return rows.map((row) => {
    const order = linkedOrder(row);
    const decimals = usdtChainNamed(row.chain)?.decimals ?? 6;
    return {
      id: row.id,
      chain: row.chain,
      verdict: row.verdict,
      problem: transferProblem(row.verdict, BigInt(row.valueRaw), order, decimals),
      amount: formatRawUsdt(row.valueRaw, decimals),
      transactionId: row.transactionId,
      fromAddress: row.fromAddress,
      toAddress: row.toAddress,
      blockTime: row.blockTime,
      order,
    };
  });
}

export async function listCallbackItems(db: Database): Promise<CallbackItem[]> {
  const rows = await db
    .select({
      id: upstreamCallbacks.id,
      channel: upstreamCallbacks.channel,
      kind: upstreamCallbacks.kind,
      verdict: upstreamCallbacks.verdict,
      detail: upstreamCallbacks.detail,
      outTradeNo: upstreamCallbacks.outTradeNo,
      tradeNo: upstreamCallbacks.tradeNo,
      receivedAt: upstreamCallbacks.receivedAt,
      ...linkedOrderColumns,
    })
    .from(upstreamCallbacks)
    .leftJoin(orders, eq(orders.id, upstreamCallbacks.orderId))
    .leftJoin(merchants, eq(merchants.id, orders.merchantId))
    .where(and(notInArray(upstreamCallbacks.verdict, UNEVENTFUL_VERDICTS), dismissed('callback', upstreamCallbacks.id)))
    .orderBy(desc(upstreamCallbacks.id))
    .limit(LIST_LIMIT);
  return rows.map(({ orderNo, merchantOrderNo, appId, status, payAmountMinor, ...row }) => ({
    ...row,
    order: linkedOrder({ orderNo, merchantOrderNo, appId, status, payAmountMinor }),
  }));
}

export async function listNotificationItems(db: Database): Promise<NotificationItem[]> {
  const rows = await db
    .select({
      id: notifications.id,
      cycle: notifications.cycle,
      attempts: notifications.attemptCount,
      lastError: notifications.lastError,
      failedAt: notifications.failedAt,
      notifyUrl: orders.notifyUrl,
      ...linkedOrderColumns,
    })
    .from(notifications)
    .innerJoin(orders, eq(orders.id, notifications.orderId))
    .innerJoin(merchants, eq(merchants.id, orders.merchantId))
    .where(
      and(
        eq(notifications.status, 'failed'),
        sql`NOT EXISTS (SELECT 1 FROM notifications newer WHERE newer.order_id = ${notifications.orderId} AND newer.cycle > ${notifications.cycle})`,
        dismissed('notification', notifications.id),
      ),
    )
    .orderBy(desc(notifications.id))
    .limit(LIST_LIMIT);
  return rows.map(({ orderNo, merchantOrderNo, appId, status, payAmountMinor, ...row }) => ({
    ...row,
    order: linkedOrder({ orderNo, merchantOrderNo, appId, status, payAmountMinor })!,
  }));
}

export async function listAttention(db: Database) {
  const [transfers, callbacks, failedNotifications] = await Promise.all([listTransferItems(db), listCallbackItems(db), listNotificationItems(db)]);
  return { transfers, callbacks, notifications: failedNotifications };
}

export type AttentionList = Awaited<ReturnType<typeof listAttention>>;
