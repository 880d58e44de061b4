import { eq, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import { orders } from '../db/schema';
import { CHANNEL_NAMES } from '../channels';

/** The portal filters by every channel of the registry. */
export const PORTAL_CHANNELS = CHANNEL_NAMES;
/** The list's status filter: an order status, or 'refunded' (paid orders with refunds that succeeded). */
export const PORTAL_ORDER_STATUSES = ['pending', 'paid', 'closed', 'refunded'] as const;
export const ORDERS_PAGE_SIZE = 20;
/** The list's test-order filter: absent, live orders only; `include`, test orders too; `only`, test orders alone. */
export const PORTAL_TEST_FILTERS = ['include', 'only'] as const;
export type TestOrderFilter = (typeof PORTAL_TEST_FILTERS)[number] | undefined;

const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/).refine((text) => !Number.isNaN(Date.parse(`${text}T00:00:00Z`)));

/**
 * The order list's query string. Unknown or malformed values are dropped rather than refused: the list is a view,
 * and a hand-edited URL should still show something. Dates are calendar days in the merchant's time zone, both
 * ends included (lib/portal/list-merchant-orders.ts).
 */
export const orderFiltersSchema = z.object({
  channel: z.preprocess(blankToUndefined, z.enum(PORTAL_CHANNELS).optional()).catch(undefined),
  status: z.preprocess(blankToUndefined, z.enum(PORTAL_ORDER_STATUSES).optional()).catch(undefined),
  from: z.preprocess(blankToUndefined, isoDate.optional()).catch(undefined),
  to: z.preprocess(blankToUndefined, isoDate.optional()).catch(undefined),
  /** The beginning of a merchantOrderNo or of a platform order number (the whole number matches too). */
  q: z.preprocess(blankToUndefined, z.string().trim().max(64).optional()).catch(undefined),
  test: z.preprocess(blankToUndefined, z.enum(PORTAL_TEST_FILTERS).optional()).catch(undefined),
  /** Keyset cursors (lib/db/keyset.ts): the page below or above a row; a malformed one shows the first page. */
  before: z.preprocess(blankToUndefined, z.string().max(64).optional()).catch(undefined),
  after: z.preprocess(blankToUndefined, z.string().max(64).optional()).catch(undefined),
});
export type OrderFilters = z.infer<typeof orderFiltersSchema>;

/** Reads Next.js searchParams (string | string[] | undefined values) into filters. */
export function parseOrderFilters(params: Record<string, string | string[] | undefined>): OrderFilters {
  const first = Object.fromEntries(Object.entries(params).map(([key, value]) => [key, Array.isArray(value) ? value[0] : value]));
  return orderFiltersSchema.parse(first);
}

/** The condition on orders.is_test of a test-order filter (none when test orders are included). */
export function testOrderCondition(filter: TestOrderFilter): SQL | undefined {
  if (filter === 'include') return undefined;
  return eq(orders.isTest, filter === 'only');
}
