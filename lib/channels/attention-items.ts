import { sql } from 'drizzle-orm';
import { attentionDismissals, merchants, orders } from '../db/schema';
import { formatMinorUnits } from '../money/decimal-amount';

/**
 * The parts of the operator's attention list (lib/operator/attention.ts) that a channel's own items are made of too:
 * the kinds, the order an item is about, and the dismissal that takes an item off the list. Here, beside the channels,
 * so that a channel builds its items without importing the console, which reads the channels.
 */

export const ATTENTION_KINDS = ['transfer', 'callback', 'notification'] as const;
export type AttentionKind = (typeof ATTENTION_KINDS)[number];

/** The verdicts that put a transfer a channel read itself (on a chain) on the list. */
export const TRANSFER_ATTENTION_VERDICTS = ['no_order', 'wrong_amount', 'late'] as const;

/** At most this many items of each kind are listed, newest first. */
export const ATTENTION_LIST_LIMIT = 200;

export interface LinkedOrder {
  orderNo: string;
  merchantOrderNo: string;
  appId: string;
  status: string;
  payAmount: string;
  currency: string;
}

/** A payment a channel read itself (a transfer on a chain) that paid nothing: no order open, a short/over amount, late. */
export interface TransferItem {
  id: number;
  /** The chain the transfer was on. */
  chain: string;
  verdict: string;
  /** What the operator reads: unmatched (no order open), short, over, late, or wrong amount (several orders open). */
  problem: 'unmatched' | 'short' | 'over' | 'late' | 'wrong_amount';
  amount: string;
  /** A short transfer's missing part, what a manual completion would forgive (USDT, as written). */
  shortBy: string | null;
  transactionId: string;
  fromAddress: string;
  toAddress: string;
  blockTime: Date;
  order: LinkedOrder | null;
}

/** The item has no dismissal: it is still on the list. */
export const notDismissed = (kind: AttentionKind, id: unknown) =>
  sql`NOT EXISTS (SELECT 1 FROM ${attentionDismissals} d WHERE d.kind = ${kind} AND d.item_id = ${id})`;

/** The columns linkedOrder reads, from orders left-joined with their merchant. */
export const linkedOrderColumns = {
  orderNo: orders.orderNo,
  merchantOrderNo: orders.merchantOrderNo,
  appId: merchants.appId,
  status: orders.status,
  payAmountMinor: orders.payAmountMinor,
  currency: orders.currency,
};

/** What linkedOrderColumns select (null where the item names no order: a left join). */
type LinkedOrderRow = { orderNo: string | null; merchantOrderNo: string | null; appId: string | null; status: string | null; payAmountMinor: bigint | null; currency: string | null };

export function linkedOrder(row: LinkedOrderRow): LinkedOrder | null {
  if (row.orderNo === null || row.appId === null) return null;
  return { orderNo: row.orderNo, merchantOrderNo: row.merchantOrderNo!, appId: row.appId, status: row.status!, payAmount: formatMinorUnits(row.payAmountMinor!), currency: row.currency! };
}

/** A row selected with linkedOrderColumns as the item's own columns and the order they name. */
export function withLinkedOrder<Row extends LinkedOrderRow>(row: Row): Omit<Row, keyof LinkedOrderRow> & { order: LinkedOrder | null } {
  const { orderNo, merchantOrderNo, appId, status, payAmountMinor, currency, ...own } = row;
  return { ...own, order: linkedOrder({ orderNo, merchantOrderNo, appId, status, payAmountMinor, currency }) };
}
