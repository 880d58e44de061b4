import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { orders } from './orders';

/**
 * One delivery cycle of an order's payment notification (the outbox row). Cycle 1 is written in the same
 * transaction that marks the order paid; an operator's resend starts the next cycle and keeps the history.
 * status: pending → delivered | failed | superseded. A claimed row carries a lease (owner + until).
 */
export const notifications = pgTable(
  'notifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => orders.id),
    cycle: integer('cycle').notNull().default(1),
    status: text('status').notNull().default('pending'),
    attemptCount: integer('attempt_count').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
    leaseOwner: text('lease_owner'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    failedAt: timestamp('failed_at', { withTimezone: true }),
  },
  (table) => [
    unique('notifications_order_cycle_key').on(table.orderId, table.cycle),
    index('notifications_due_idx')
      .on(table.nextAttemptAt)
      .where(sql`${table.status} = 'pending'`),
    // The operator's attention list: failed notifications, newest first.
    index('notifications_failed_idx')
      .on(table.id)
      .where(sql`${table.status} = 'failed'`),
  ],
);

/** Every delivery attempt, as sent and as answered. */
export const notificationAttempts = pgTable(
  'notification_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    notificationId: bigint('notification_id', { mode: 'number' })
      .notNull()
      .references(() => notifications.id),
    attemptNo: integer('attempt_no').notNull(),
    workerId: text('worker_id').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** in_flight | acknowledged | rejected | abandoned (its worker died; the notification was claimed again) */
    outcome: text('outcome').notNull().default('in_flight'),
    httpStatus: integer('http_status'),
    latencyMs: integer('latency_ms'),
    responseExcerpt: text('response_excerpt'),
    error: text('error'),
  },
  (table) => [unique('notification_attempts_once_key').on(table.notificationId, table.attemptNo)],
);

export type NotificationRow = typeof notifications.$inferSelect;
export type NotificationAttemptRow = typeof notificationAttempts.$inferSelect;
