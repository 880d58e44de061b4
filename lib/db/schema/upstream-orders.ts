import { bigint, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { orders } from './orders';

/**
 * The upstream's side of an order, as its create call answered: its own order number, the cashier URL and the QR
 * content. Written in the same transaction as the order, and only after the upstream accepted it.
 */
export const upstreamOrders = pgTable(
  'upstream_orders',
  {
    orderId: bigint('order_id', { mode: 'number' })
      .primaryKey()
      .references(() => orders.id),
    channel: text('channel').notNull(),
    /** The upstream's order number. */
    upstreamOrderNo: text('upstream_order_no').notNull(),
    cashierUrl: text('cashier_url').notNull(),
    qrContent: text('qr_content'),
    /** When the upstream issued cashierUrl (some upstreams' links live minutes); null: at createdAt. */
    cashierIssuedAt: timestamp('cashier_issued_at', { withTimezone: true }),
    /** The payer IP the upstream order was made for, sent again when it is renewed. */
    payerClientIp: text('payer_client_ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [unique('upstream_orders_channel_no_key').on(table.channel, table.upstreamOrderNo)],
);

export type UpstreamOrderRow = typeof upstreamOrders.$inferSelect;
