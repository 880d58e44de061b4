import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, integer, jsonb, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { NOTIFICATION_KINDS, type NotificationKind } from './notification-kinds';
import { sqlList } from '../sql-list';
import { orders } from './orders';

/**
 * One delivery cycle of a notice to the merchant (the outbox row): of its kind (a payment, a refund's final state…)
 * about one order and, for a refund, one subject (the refund). Cycle 1 is written in the same transaction as the
 * event; an operator's resend starts the next cycle and keeps the history.
 * status: pending → delivered | failed | superseded. A claimed row carries a lease (owner + until).
 * destination is the notifyUrl's host (with its port): claims share worker slots fairly between destinations.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => orders.id),
    kind: text('kind').$type<NotificationKind>().notNull().default('payment'),
    /** What the notice is about within the order: a refund's id; '' for the order itself. */
    subject: text('subject').notNull().default(''),
    /** Where it goes; null for a payment notice, which goes to the order's notifyUrl. */
    notifyUrl: text('notify_url'),
    /** The unsigned form of a notice other than a payment, frozen when the event happened; signed at each attempt. */
    fields: jsonb('fields').$type<Record<string, string>>(),
    cycle: integer('cycle').notNull().default(1),
    status: text('status').notNull().default('pending'),
    attemptCount: integer('attempt_count').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
    leaseOwner: text('lease_owner'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    /** host[:port] of the order's notifyUrl; null when the order has none (or it is not a URL). */
    destination: text('destination'),
    /** The retry plan's horizon: after it no attempt starts, and one deferred by an open circuit fails. */
    giveUpAt: timestamp('give_up_at', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    failedAt: timestamp('failed_at', { withTimezone: true }),
  },
  (table) => [
    check('notifications_kind_check', sql`${table.kind} IN (${sqlList(NOTIFICATION_KINDS)})`),
    check('notifications_form_check', sql`(${table.kind} = 'payment') = (${table.fields} IS NULL)`),
    unique('notifications_order_kind_subject_cycle_key').on(table.orderId, table.kind, table.subject, table.cycle),
    index('notifications_due_idx')
      .on(table.nextAttemptAt)
      .where(sql`${table.status} = 'pending'`),
    // The claim walks the destinations with notifications pending, then takes each one's oldest due.
    index('notifications_pending_destination_idx')
      .on(table.destination, table.nextAttemptAt)
      .where(sql`${table.status} = 'pending'`),
    // A worker's attempts in flight, counted per destination on every claim (only leased rows are indexed).
    index('notifications_leased_idx')
      .on(table.leaseOwner, table.destination)
      .where(sql`${table.leaseOwner} IS NOT NULL`),
    // The operator's attention list: failed notifications, newest first.
    index('notifications_failed_idx')
      .on(table.id)
      .where(sql`${table.status} = 'failed'`),
  ],
);

/**
 * The circuit breaker of one destination, shared by every worker. A row exists once the destination has failed
 * (no answer: timeout, refused, unreachable); consecutive failures open the circuit until `openUntil`, then one
 * probe (`probeUntil` is its lease) decides: an answer closes it, another failure opens it for longer.
 */
export const notificationDestinations = pgTable('notification_destinations', {
  destination: text('destination').primaryKey(),
  consecutiveFailures: integer('consecutive_failures').notNull().default(0),
  /** First failure of the current run of failures; null while the destination answers. */
  failingSince: timestamp('failing_since', { withTimezone: true }),
  openUntil: timestamp('open_until', { withTimezone: true }),
  probeUntil: timestamp('probe_until', { withTimezone: true }),
  lastError: text('last_error'),
  lastFailureAt: timestamp('last_failure_at', { withTimezone: true }),
  lastAnswerAt: timestamp('last_answer_at', { withTimezone: true }),
});

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
export type NotificationDestinationRow = typeof notificationDestinations.$inferSelect;
