import type { Database } from '../../db/client';
import { preparedSql } from '../../db/prepared';
import type { OrderRow } from '../../db/schema';
import { DEFAULT_MAX_HELD_SLOTS, fairShareBreach, poolSharedSql, type MerchantHoldings } from './fair-share';

/**
 * A merchant's slots on one network ($2 chainType, $3 the pool's chain name) as the fair-share rule reads them, in
 * one statement: whether another merchant may place orders (the pool is then shared), its limits (those the operator
 * set in usdt_merchant_limits; else, while the pool is shared, the defaults: $5 held slots, and for one amount the
 * number of the network's enabled addresses, half the slots of an amount and its next cent; else none), how many
 * slots it holds (counted only up to its limit + 1, so the cost stays bounded by the limit, not by its orders) and
 * those it holds from $4 - 0.01 to $4 + 0.02 (the amounts a submit of $4 or its +0.01 step weighs). Both counts
 * probe orders_usdt_merchant_slots_idx. A limit of 0 is no limit.
 */
export const MERCHANT_HOLDINGS_SQL = `
    WITH pool AS (
      SELECT ${poolSharedSql('$1::bigint')} AS shared,
             (SELECT count(*)::int FROM receiving_addresses a WHERE a.enabled AND a.chain = $3) AS addresses,
             (SELECT l.max_held_slots FROM usdt_merchant_limits l WHERE l.merchant_id = $1::bigint) AS held_set,
             (SELECT l.max_amount_slots FROM usdt_merchant_limits l WHERE l.merchant_id = $1::bigint) AS amount_set
    ), limits AS (
      SELECT pool.*, coalesce(held_set, CASE WHEN shared THEN $5::int ELSE 0 END) AS max_held,
             coalesce(amount_set, CASE WHEN shared THEN addresses ELSE 0 END) AS max_amount
      FROM pool
    )
    SELECT limits.addresses, limits.held_set IS NOT NULL AS held_limit_set, limits.amount_set IS NOT NULL AS amount_limit_set,
           limits.max_held, limits.max_amount,
           (SELECT count(*)::int FROM (
              SELECT 1 FROM orders o WHERE o.holds_slot AND o.merchant_id = $1::bigint AND o.chain_type = $2
              LIMIT (SELECT max_held + 1 FROM limits)
           ) AS held) AS held,
           ARRAY(SELECT o.pay_amount_minor::text FROM orders o
                 WHERE o.holds_slot AND o.merchant_id = $1::bigint AND o.chain_type = $2
                   AND o.pay_amount_minor BETWEEN $4::bigint - 1 AND $4::bigint + 2) AS near
    FROM limits`;

interface HoldingsRow {
  addresses: number;
  held_limit_set: boolean;
  amount_limit_set: boolean;
  max_held: number;
  max_amount: number;
  held: number;
  near: string[];
}

export async function merchantHoldings(db: Database, merchantId: number, chainType: string, chainName: string, amountMinor: bigint): Promise<MerchantHoldings> {
  const statement = preparedSql<HoldingsRow>(db, 'usdt_merchant_holdings', MERCHANT_HOLDINGS_SQL, ['merchantId', 'chainType', 'chain', 'amount', 'defaultMaxHeld']);
  const { rows } = await statement.execute({ merchantId, chainType, chain: chainName, amount: amountMinor, defaultMaxHeld: DEFAULT_MAX_HELD_SLOTS });
  const row = rows[0]!;
  const near = new Map<bigint, number>();
  for (const amount of row.near) near.set(BigInt(amount), (near.get(BigInt(amount)) ?? 0) + 1);
  return {
    chainName,
    addresses: row.addresses,
    heldLimitSet: row.held_limit_set,
    amountLimitSet: row.amount_limit_set,
    maxHeldSlots: row.max_held,
    maxAmountSlots: row.max_amount,
    held: row.held,
    near,
  };
}

/** Takes back an order that went over its merchant's share; kept if it is no longer pending (paid that very moment). */
const TAKE_BACK_SQL = `DELETE FROM orders WHERE id = $1::bigint AND status = 'pending'`;

/**
 * The fair-share check on what is committed, after an order took its slot (see fair-share.ts on concurrent
 * submits): the order when it keeps the merchant within its limits; else it is taken back (deleted, never answered)
 * and the refusal thrown.
 */
export async function keptWithinShare<Order extends Pick<OrderRow, 'id' | 'merchantId' | 'chainType' | 'requestedAmountMinor' | 'payAmountMinor'>>(
  db: Database,
  order: Order,
  chainName: string,
): Promise<Order> {
  const holdings = await merchantHoldings(db, order.merchantId, order.chainType!, chainName, order.payAmountMinor);
  const breach = fairShareBreach(holdings, order.requestedAmountMinor, order.payAmountMinor);
  if (!breach) return order;
  const { rowCount } = await preparedSql(db, 'usdt_take_back_order', TAKE_BACK_SQL, ['id']).execute({ id: order.id });
  if (!rowCount) return order;
  throw breach;
}
