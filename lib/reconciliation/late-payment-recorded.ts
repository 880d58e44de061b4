import { sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';

/**
 * Whether the service recorded a late payment for the order (a payment the upstream took after the order was closed
 * here: lib/refunds/late-payment-refund.ts), as a column of a select or a condition of a statement (the order's id
 * column, or its alias's `o.id` in raw SQL); false for no order.
 */
export const latePaymentRecorded = (orderId: PgColumn | SQL): SQL<boolean> =>
  sql<boolean>`EXISTS (SELECT 1 FROM upstream_callbacks c WHERE c.order_id = ${orderId} AND c.verdict = 'late_payment')`.mapWith(Boolean);
