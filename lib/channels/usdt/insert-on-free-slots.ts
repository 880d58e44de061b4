import type { Database } from '../../db/client';
import { mappedRow } from '../../db/mapped-row';
import { preparedSql } from '../../db/prepared';
import { isUniqueViolation } from '../../db/unique-violation';
import { merchantUnchangedForRowSql, type MerchantCheck } from '../../merchants/merchant-check';
import { statementBatches } from '../../db/statement-batches';
import { postgresArray, type ArrayElement } from '../../db/postgres-array';
import { orders, type OrderRow } from '../../db/schema';
import { DEFAULT_USDT_MAX_PER_ORDER_MINOR, USDT_MAX_PER_ORDER } from './max-per-order';
import { newOrderNo, newPayToken } from '../../orders/identifiers';
import { usdtChainByType } from './usdt-chains';
import { isoTimestamp } from '../../clock';
import { poolSharedSql } from './fair-share';

/*
 * A USDT order's fields, and the submits' common case: one statement inserting the orders of the submits that arrive
 * together, each on a free slot (create-usdt-order.ts takes every other case step by step).
 */

/** The pool's chain (receiving_addresses.chain) of the order's chainType, which the request parser has checked. */
export function chainOf(input: UsdtOrderInput): string {
  const chain = usdtChainByType(input.chainType);
  if (!chain) throw new RangeError(`unknown chainType ${input.chainType}`);
  return chain.name;
}

/** The first letter of USDT platform order numbers. */
export const USDT_ORDER_NO_PREFIX = 'U';

export interface UsdtOrderInput {
  merchantOrderNo: string;
  amountMinor: bigint;
  chainType: string;
  productName?: string;
  notifyUrl?: string;
  redirectUrl?: string;
  attach?: string;
  /** The submit's request id, stored with the order for its later log lines. */
  requestId?: string;
  /** The remembered merchant row the request was authenticated with, confirmed by the insert (merchant-check.ts). */
  merchantCheck?: MerchantCheck;
  /** A test order (the portal's test-order form), stored as one. */
  isTest?: boolean;
}

/**
 * What a submit needs of the order it created or recovered: the answer's fields, the fair-share check's and the log
 * line's (the hot insert returns only these columns: pg parses, and Drizzle maps, each column of each row).
 */
export type CreatedUsdtOrder = Pick<
  OrderRow,
  'id' | 'orderNo' | 'merchantId' | 'merchantOrderNo' | 'channel' | 'status' | 'requestedAmountMinor' | 'payAmountMinor' | 'chainType' | 'receivingAddressId' | 'payToken' | 'expiresAt' | 'requestId'
>;

export const CREATED_COLUMNS = Object.entries({
  id: orders.id,
  orderNo: orders.orderNo,
  merchantId: orders.merchantId,
  merchantOrderNo: orders.merchantOrderNo,
  channel: orders.channel,
  status: orders.status,
  requestedAmountMinor: orders.requestedAmountMinor,
  payAmountMinor: orders.payAmountMinor,
  chainType: orders.chainType,
  receivingAddressId: orders.receivingAddressId,
  payToken: orders.payToken,
  expiresAt: orders.expiresAt,
  requestId: orders.requestId,
} satisfies Record<keyof CreatedUsdtOrder, unknown>);

/**
 * The common case in one statement, for the submits that arrive together (statement-batches.ts): each input i is an
 * order at its requested amount ($4[i]) on the first enabled address of its chain ($12[i]) where no order holds that
 * amount, if the amount is within the platform's per-order limit (setting $16, default $17) and, when the merchant
 * was authenticated from its remembered row, that row is unchanged (version $14[i], merchant-check.ts). Addresses are
 * read in id order and each probed once on the slot index until one is free, so an input usually costs one probe.
 * The probe's OFFSET 0 keeps it a subplan run per address, which PostgreSQL can neither pull up into an anti-join
 * nor hash: without it, at 1,000 pending orders the NOT EXISTS was planned as a merge anti-join reading the whole slot
 * index for every input, and a submit cost 1.6 ms of database CPU where it costs about 0.1 ms.
 * No row for an input when the amount is over the limit, every address holds it, the merchantOrderNo exists (a
 * replay), a concurrent submit (or another input of the same statement) took the slot, or the merchant's row changed:
 * the step-by-step path then decides (replay, 1008, +0.01, cooled slots, races).
 * Only the slot key arbitrates the ON CONFLICT: each arbiter costs a probe of its index before every row, and the
 * other unique keys conflict only in races, which the NOT EXISTS above does not see (a concurrent statement's
 * merchantOrderNo, an order number drawn twice in one second). Those fail the statement, which
 * insertOnFreeSlotsStatement runs again. Each row says too whether the merchant's pool share is unlimited (each limit
 * set to none, or left at the default while no other merchant may place orders: fair-share.ts), when the fair-share
 * check after the insert has nothing to weigh: a merchant alone on its pool pays this one statement per submit.
 */
export const INSERT_ON_FREE_SLOTS_SQL = `
    WITH inserted AS (
      INSERT INTO orders (order_no, merchant_id, merchant_order_no, channel, currency, requested_amount_minor, pay_amount_minor,
                          chain_type, receiving_address_id, product_name, notify_url, redirect_url, attach, pay_token, expires_at, holds_slot, request_id, is_test)
      SELECT r.order_no, r.merchant_id, r.merchant_order_no, 'USDT', 'USDT', r.amount, r.amount, r.chain_type, slot.id, r.product_name,
             r.notify_url, r.redirect_url, r.attach, r.pay_token, r.expires_at, true, r.request_id, r.is_test
      FROM unnest($1::text[], $2::bigint[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[],
                  $11::timestamptz[], $12::text[], $13::text[], $14::text[], $15::boolean[])
           WITH ORDINALITY AS r(order_no, merchant_id, merchant_order_no, amount, chain_type, product_name, notify_url, redirect_url, attach,
                                pay_token, expires_at, chain, request_id, version, is_test, i)
      CROSS JOIN LATERAL (
        SELECT a.id FROM receiving_addresses a
        WHERE a.enabled AND a.chain = r.chain
          AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.holds_slot AND o.receiving_address_id = a.id AND o.pay_amount_minor = r.amount OFFSET 0)
        ORDER BY a.id
        LIMIT 1
      ) AS slot
      WHERE r.amount <= coalesce((SELECT s.value::bigint FROM platform_settings s WHERE s.key = $16), $17::bigint)
        AND (r.version IS NULL OR (${merchantUnchangedForRowSql('r')}))
        AND NOT EXISTS (SELECT 1 FROM orders o WHERE o.merchant_id = r.merchant_id AND o.merchant_order_no = r.merchant_order_no OFFSET 0)
      ORDER BY r.i
      ON CONFLICT (receiving_address_id, pay_amount_minor) WHERE holds_slot DO NOTHING
      RETURNING ${CREATED_COLUMNS.map(([, column]) => column.name).join(', ')})
    SELECT inserted.*,
           coalesce(l.max_held_slots, 0) = 0 AND coalesce(l.max_amount_slots, 0) = 0
             AND ((l.max_held_slots = 0 AND l.max_amount_slots = 0) OR NOT ${poolSharedSql('inserted.merchant_id')}) AS unlimited_share
    FROM inserted LEFT JOIN usdt_merchant_limits l ON l.merchant_id = inserted.merchant_id`;

/** The new order's own fields, whichever slot it gets (a fresh order number and pay token for each attempt). */
export function newOrderFields(merchantId: number, input: UsdtOrderInput, now: Date, expiresAt: Date) {
  return {
    orderNo: newOrderNo(USDT_ORDER_NO_PREFIX, now),
    merchantId,
    merchantOrderNo: input.merchantOrderNo,
    chainType: input.chainType,
    productName: input.productName ?? null,
    notifyUrl: input.notifyUrl ?? null,
    redirectUrl: input.redirectUrl ?? null,
    attach: input.attach ?? null,
    payToken: newPayToken(),
    expiresAt,
    requestId: input.requestId ?? null,
    isTest: input.isTest ?? false,
  };
}

interface FreeSlotInsert {
  merchantId: number;
  input: UsdtOrderInput;
  now: Date;
  expiresAt: Date;
}

type FreeSlotInserted = { order: CreatedUsdtOrder; unlimitedShare: boolean } | undefined;

/**
 * The batched insert: inputs in order of amount, so that two statements running at once take the slot index's
 * entries in the same order (a statement waits for another's uncommitted entry; in opposite orders that would be a
 * deadlock), answered by their order numbers.
 */
function insertOnFreeSlotsStatement(db: Database) {
  const statement = preparedSql<Record<string, unknown>>(db, 'usdt_insert_on_free_slots', INSERT_ON_FREE_SLOTS_SQL, [
    'orderNos', 'merchantIds', 'merchantOrderNos', 'amounts', 'chainTypes', 'productNames', 'notifyUrls', 'redirectUrls', 'attaches', 'payTokens',
    'expiresAts', 'chains', 'requestIds', 'merchantVersions', 'isTests', 'limitKey', 'defaultLimit',
  ]);
  const insertOnce = async (inserts: readonly FreeSlotInsert[]): Promise<FreeSlotInserted[]> => {
    // The fields beside the input, not spread into one object with it: that copy cost 3-4 µs per input.
    const rows = inserts.map(({ merchantId, input, now, expiresAt }) => ({ fields: newOrderFields(merchantId, input, now, expiresAt), input }));
    const sent = withoutRepeatedKeys(rows);
    const sorted = [...sent].sort((a, b) => (a.input.amountMinor < b.input.amountMinor ? -1 : a.input.amountMinor > b.input.amountMinor ? 1 : 0));
    const column = (pick: (row: (typeof rows)[number]) => ArrayElement) => postgresArray(sorted.map(pick));
    const result = await statement.execute({
      orderNos: column((row) => row.fields.orderNo),
      merchantIds: column((row) => row.fields.merchantId),
      merchantOrderNos: column((row) => row.fields.merchantOrderNo),
      amounts: column((row) => row.input.amountMinor.toString()),
      chainTypes: column((row) => row.fields.chainType),
      productNames: column((row) => row.fields.productName),
      notifyUrls: column((row) => row.fields.notifyUrl),
      redirectUrls: column((row) => row.fields.redirectUrl),
      attaches: column((row) => row.fields.attach),
      payTokens: column((row) => row.fields.payToken),
      // As text: node-postgres formats a Date parameter field by field in the process's time zone.
      expiresAts: column((row) => isoTimestamp(row.fields.expiresAt)),
      chains: column((row) => chainOf(row.input)),
      requestIds: column((row) => row.fields.requestId),
      merchantVersions: column((row) => row.input.merchantCheck?.version ?? null),
      isTests: column((row) => row.fields.isTest),
      limitKey: USDT_MAX_PER_ORDER,
      defaultLimit: DEFAULT_USDT_MAX_PER_ORDER_MINOR,
    });
    const byOrderNo = new Map(result.rows.map((raw) => [raw.order_no as string, raw]));
    return rows.map((row) => {
      const raw = sent.has(row) ? byOrderNo.get(row.fields.orderNo) : undefined;
      return raw && { order: mappedRow<CreatedUsdtOrder>(CREATED_COLUMNS, raw), unlimitedShare: raw.unlimited_share === true };
    });
  };
  // A race on a unique key the statement does not arbitrate (INSERT_ON_FREE_SLOTS_SQL). Several inputs: the one
  // statement once more, with fresh order numbers and a snapshot that sees the row met (a concurrent merchantOrderNo
  // is then left out), not a statement per input at once (each on a pool connection, opened if none is idle); should
  // that fail too, StatementBatches tries the inputs one by one. One input: no row, and the step-by-step path answers
  // the replay or draws another order number.
  return async (inserts: readonly FreeSlotInsert[]): Promise<FreeSlotInserted[]> => {
    try {
      return await insertOnce(inserts);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      return inserts.length > 1 ? insertOnce(inserts) : inserts.map(() => undefined);
    }
  };
}

/**
 * The inputs the statement may carry: each row is answered by its order number, so an input whose order number (eight
 * random digits a second) or merchantOrderNo (a merchant's concurrent retry) repeats an earlier input's is left out:
 * it takes the step-by-step path, which answers the replay or draws another number.
 */
function withoutRepeatedKeys<Row extends { fields: { orderNo: string; merchantId: number; merchantOrderNo: string } }>(rows: readonly Row[]): Set<Row> {
  const orderNos = new Set<string>();
  const merchantOrderNos = new Set<string>();
  const kept = new Set<Row>();
  for (const row of rows) {
    const { orderNo, merchantId, merchantOrderNo } = row.fields;
    const merchantKey = `${merchantId}:${merchantOrderNo}`;
    if (orderNos.has(orderNo) || merchantOrderNos.has(merchantKey)) continue;
    orderNos.add(orderNo);
    merchantOrderNos.add(merchantKey);
    kept.add(row);
  }
  return kept;
}

export function insertOnFreeSlot(db: Database, merchantId: number, input: UsdtOrderInput, now: Date, expiresAt: Date): Promise<FreeSlotInserted> {
  return statementBatches(db, 'usdt_insert_on_free_slots', insertOnFreeSlotsStatement).run({ merchantId, input, now, expiresAt });
}
