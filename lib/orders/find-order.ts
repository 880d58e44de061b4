import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { mappedRow } from '../db/mapped-row';
import { prepared, preparedSql } from '../db/prepared';
import { merchantUnchangedForRowSql, settleMerchantCheck, type MerchantCheck } from '../merchants/merchant-check';
import { READ_BATCH_LIMITS, statementBatches } from '../db/statement-batches';
import { postgresArray } from '../db/postgres-array';
import { orders, upstreamOrders, type OrderRow } from '../db/schema';

/** The merchant's order by its merchantOrderNo (placeholders merchantId, merchantOrderNo): one probe of the unique key. */
function byMerchantOrderNo() {
  return and(eq(orders.merchantId, sql.placeholder('merchantId')), eq(orders.merchantOrderNo, sql.placeholder('merchantOrderNo')));
}

export async function findMerchantOrder(db: Database, merchantId: number, merchantOrderNo: string): Promise<OrderRow | undefined> {
  const statement = prepared(db, 'order_by_merchant_order_no', (handle, name) =>
    handle
      .select()
      .from(orders)
      .where(byMerchantOrderNo())
      .limit(1)
      .prepare(name),
  );
  const [row] = await statement.execute({ merchantId, merchantOrderNo });
  return row;
}

/** What the open-API query answers from, on every channel: the order's wire fields, no more. */
export type QueriedOrder = Pick<
  OrderRow,
  'channel' | 'status' | 'orderNo' | 'merchantOrderNo' | 'requestedAmountMinor' | 'payAmountMinor' | 'payMethod' | 'payToken' | 'expiresAt' | 'paidAt' | 'tradeNo' | 'chainType' | 'refundedMinor'
>;

/** The columns the query answers with, by QueriedOrder's keys. */
const QUERIED_COLUMNS = {
  channel: orders.channel,
  status: orders.status,
  orderNo: orders.orderNo,
  merchantOrderNo: orders.merchantOrderNo,
  requestedAmountMinor: orders.requestedAmountMinor,
  payAmountMinor: orders.payAmountMinor,
  refundedMinor: orders.refundedMinor,
  payMethod: orders.payMethod,
  payToken: orders.payToken,
  expiresAt: orders.expiresAt,
  paidAt: orders.paidAt,
  tradeNo: orders.tradeNo,
  chainType: orders.chainType,
} satisfies Record<keyof QueriedOrder, unknown>;
const QUERIED_ENTRIES = Object.entries(QUERIED_COLUMNS);

/**
 * The query's probe of the unique key and the confirmation of a remembered merchant row, for the queries that arrive
 * together (statement-batches.ts): input i is merchant $1[i], its merchantOrderNo $2[i] and the remembered row's
 * version $3[i] (NULL without one). Each is one probe of the unique key: the LATERAL subquery with LIMIT 1 keeps it a
 * probe whatever the planner guesses of the arrays' length.
 */
const QUERIED_ORDERS_SQL = `
    SELECT r.i, coalesce(${merchantUnchangedForRowSql('r')}, false) AS merchant_unchanged,
           o.*
    FROM unnest($1::bigint[], $2::text[], $3::text[]) WITH ORDINALITY AS r(merchant_id, merchant_order_no, version, i)
    LEFT JOIN LATERAL (
      SELECT ${QUERIED_ENTRIES.map(([, column]) => column.name).join(', ')} FROM orders o WHERE o.merchant_id = r.merchant_id AND o.merchant_order_no = r.merchant_order_no LIMIT 1
    ) AS o ON true`;

interface QueriedOrderLookup {
  merchantId: number;
  merchantOrderNo: string;
  version: string | null;
}

function queriedOrdersStatement(db: Database) {
  const statement = preparedSql<Record<string, unknown>>(db, 'queried_orders', QUERIED_ORDERS_SQL, ['merchantIds', 'merchantOrderNos', 'versions']);
  return async (lookups: readonly QueriedOrderLookup[]) => {
    const { rows } = await statement.execute({
      merchantIds: postgresArray(lookups.map((lookup) => lookup.merchantId)),
      merchantOrderNos: postgresArray(lookups.map((lookup) => lookup.merchantOrderNo)),
      versions: postgresArray(lookups.map((lookup) => lookup.version)),
    });
    const answers: Record<string, unknown>[] = [];
    for (const row of rows) answers[Number(row.i) - 1] = row;
    return answers;
  };
}

/**
 * The merchant's order for the open-API query: the same probe as findMerchantOrder, only the columns it answers
 * with, sent with the queries beside it. With a MerchantCheck the same statement confirms the remembered merchant row
 * (StaleMerchant when it changed).
 */
export async function findQueriedOrder(db: Database, merchantId: number, merchantOrderNo: string, check?: MerchantCheck): Promise<QueriedOrder | undefined> {
  const raw = await statementBatches(db, 'queried_orders', queriedOrdersStatement, READ_BATCH_LIMITS).run({ merchantId, merchantOrderNo, version: check?.version ?? null });
  if (check) settleMerchantCheck(check, raw.merchant_unchanged === true);
  return raw.order_no === null ? undefined : mappedRow<QueriedOrder>(QUERIED_ENTRIES, raw);
}

export async function findOrderByPayToken(db: Database, payToken: string): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.payToken, payToken)).limit(1);
  return row;
}

const PAY_TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

/** An order of an upstream channel with its upstream_orders row, by payUrl token (checkout pages, the QR image). */
export async function findOrderWithUpstream(db: Database, payToken: string) {
  if (!PAY_TOKEN.test(payToken)) return undefined;
  const [row] = await db
    .select({ order: orders, upstream: upstreamOrders })
    .from(orders)
    .innerJoin(upstreamOrders, eq(upstreamOrders.orderId, orders.id))
    .where(eq(orders.payToken, payToken))
    .limit(1);
  return row;
}
