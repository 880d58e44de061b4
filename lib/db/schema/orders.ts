import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, index, pgTable, text, timestamp, unique, uniqueIndex } from 'drizzle-orm/pg-core';
import { CHANNEL_NAMES } from '../../channels/channel-names';
import { sqlList } from '../sql-list';
import { merchants } from './merchants';
import { receivingAddresses } from './receiving-addresses';

/** An order's lifecycle (lib/orders/order-status.ts changes it); each channel derives its wire status from it. */
export const ORDER_STATUSES = ['pending', 'paid', 'closed'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/**
 * Why a closed order closed: its window ended, the merchant closed it ('closed', open API or portal), or the payer
 * cancelled it at the checkout ('cancelled'): lib/orders/close-order.ts.
 */
export const CLOSE_REASONS = ['expired', 'closed', 'cancelled'] as const;
export type CloseReason = (typeof CLOSE_REASONS)[number];

/** One table for every channel. Amounts are integer minor units (cents of USDT, fen of CNY). */
export const orders = pgTable(
  'orders',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderNo: text('order_no').notNull().unique(),
    merchantId: bigint('merchant_id', { mode: 'number' })
      .notNull()
      .references(() => merchants.id),
    merchantOrderNo: text('merchant_order_no').notNull(),
    channel: text('channel').notNull(),
    status: text('status').$type<OrderStatus>().notNull().default('pending'),
    currency: text('currency').notNull(),
    /** What the merchant asked for. */
    requestedAmountMinor: bigint('requested_amount_minor', { mode: 'bigint' }).notNull(),
    /** What the payer must pay: for USDT possibly requested + 1 cent (the +0.01 rule). */
    payAmountMinor: bigint('pay_amount_minor', { mode: 'bigint' }).notNull(),
    chainType: text('chain_type'),
    receivingAddressId: bigint('receiving_address_id', { mode: 'number' }).references(() => receivingAddresses.id),
    payMethod: text('pay_method'),
    credentialId: bigint('credential_id', { mode: 'number' }),
    credentialExplicit: boolean('credential_explicit').notNull().default(false),
    productName: text('product_name'),
    productDesc: text('product_desc'),
    notifyUrl: text('notify_url'),
    redirectUrl: text('redirect_url'),
    attach: text('attach'),
    payToken: text('pay_token').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    /** Set with closedAt: 'expired' when the window ended, 'closed' when the merchant closed it, 'cancelled' the payer. */
    closeReason: text('close_reason').$type<CloseReason>(),
    tradeNo: text('trade_no'),
    /** Where the payment came from: upstream callback, poller, chain, or 'manual' (operator). */
    paidVia: text('paid_via'),
    /** The X-Request-Id of the submit that created the order: its later log lines (notification attempts) name it. */
    requestId: text('request_id'),
    /**
     * Created by the portal's test-order form (set by the insert, never later): shown with a "Test" badge and left out
     * of the portal's live list, figures and statement unless the merchant asks for them.
     */
    isTest: boolean('is_test').notNull().default(false),
    /** Who paid, as the upstream names them (USDT: the sending address). */
    payer: text('payer'),
    /**
     * USDT: the order holds its (address, amount) slot, from creation until it is paid or its window ended a
     * cool-down ago (USDT_SLOT_COOLDOWN_MINUTES), so a late transfer for an expired order never pays a new one.
     */
    holdsSlot: boolean('holds_slot').notNull().default(false),
    /**
     * ALIPAY: when the poller may next ask Alipay about this pending order (set at creation, never later than the end
     * of its window while the window is open). Unused by the other channels.
     */
    upstreamCheckAfter: timestamp('upstream_check_after', { withTimezone: true }),
    /** Refunds not failed or closed (processing or succeeded); never above what was paid (orders_refund_total_check). */
    refundReservedMinor: bigint('refund_reserved_minor', { mode: 'bigint' }).notNull().default(0n),
    /** Refunds that succeeded: the refunded total the query answers. */
    refundedMinor: bigint('refunded_minor', { mode: 'bigint' }).notNull().default(0n),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('orders_status_check', sql`${table.status} IN (${sqlList(ORDER_STATUSES)})`),
    check('orders_close_reason_check', sql`${table.closeReason} IN (${sqlList(CLOSE_REASONS)})`),
    // The payTypes orders.channel may hold. A CHECK constraint is fixed in a migration: a new channel name means a
    // generated one (lib/channels/registry.test.ts fails while the database's list differs from the registry's).
    check('orders_channel_check', sql`${table.channel} IN (${sqlList(CHANNEL_NAMES)})`),
    check(
      'orders_refund_total_check',
      sql`0 <= ${table.refundedMinor} AND ${table.refundedMinor} <= ${table.refundReservedMinor} AND ${table.refundReservedMinor} <= ${table.payAmountMinor}`,
    ),
    unique('orders_merchant_order_no_key').on(table.merchantId, table.merchantOrderNo),
    // The amount-slot rule (the +0.01 rule, lib/channels/usdt/amount-slots.ts) and its cool-down: one
    // (receiving address, amount) slot is held by one USDT order at a time.
    uniqueIndex('orders_usdt_slot_holder_key')
      .on(table.receivingAddressId, table.payAmountMinor)
      .where(sql`${table.holdsSlot}`),
    // The expiry job frees slots whose cool-down has ended.
    index('orders_usdt_slot_release_idx')
      .on(table.expiresAt)
      .where(sql`${table.holdsSlot}`),
    // Fair use of the shared pool (lib/channels/usdt/fair-share.ts): the slots one merchant's orders hold on one
    // network, and those near one amount.
    index('orders_usdt_merchant_slots_idx')
      .on(table.merchantId, table.chainType, table.payAmountMinor)
      .where(sql`${table.holdsSlot}`),
    // The chain watcher looks up a USDT order by receiving address and exact amount, whatever its status.
    index('orders_usdt_address_amount_idx')
      .on(table.receivingAddressId, table.payAmountMinor, table.createdAt)
      .where(sql`${table.channel} = 'USDT'`),
    // The expiry job and the pollers: one channel's pending orders, nearest expiry first.
    index('orders_pending_channel_expiry_idx')
      .on(table.channel, table.expiresAt)
      .where(sql`${table.status} = 'pending'`),
    // A poller that schedules each order's next check (upstream_check_after, ALIPAY's): one channel's pending orders
    // whose check is due, earliest first. Only the orders that carry a check time are in it.
    index('orders_pending_check_idx')
      .on(table.channel, table.upstreamCheckAfter)
      .where(sql`${table.status} = 'pending' AND ${table.upstreamCheckAfter} IS NOT NULL`),
    // The portal's order list (newest first, keyset paged, test orders left out by default) and the dashboard's last
    // days, whose counts by status of live orders it answers from the index alone.
    index('orders_merchant_created_idx').on(table.merchantId, table.createdAt, table.id, table.status, table.isTest),
    // The list of test orders alone (`?test=only`): few rows among a merchant's live ones.
    index('orders_merchant_test_created_idx')
      .on(table.merchantId, table.createdAt, table.id)
      .where(sql`${table.isTest}`),
    // The same list filtered by status (pending orders are the newest: "paid" would skip them all).
    index('orders_merchant_status_created_idx').on(table.merchantId, table.status, table.createdAt, table.id),
    // The portal's list filtered to refunded orders.
    index('orders_merchant_refunded_idx')
      .on(table.merchantId, table.createdAt, table.id)
      .where(sql`${table.refundedMinor} > 0`),
    // The dashboard's paid totals, by paid time.
    // Reconciliation: one channel's orders paid on one day (lib/reconciliation).
    index('orders_channel_paid_idx')
      .on(table.channel, table.paidAt)
      .where(sql`${table.status} = 'paid'`),
    index('orders_merchant_paid_idx')
      .on(table.merchantId, table.paidAt)
      .where(sql`${table.status} = 'paid'`),
  ],
);

export type OrderRow = typeof orders.$inferSelect;
