import { bigint, bigserial, index, integer, numeric, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';
import { orders } from '../../../db/schema/orders';
import { receivingAddresses } from '../../../db/schema/receiving-addresses';

/** How far the chain watcher has read (block timestamp, ms), persisted so a restart resumes without gaps. */
export const chainCursors = pgTable('chain_cursors', {
  name: text('name').primaryKey(),
  blockTimestampMs: bigint('block_timestamp_ms', { mode: 'number' }).notNull(),
  /** The block the TRON watcher has read through (it reads solidified blocks by number); null on other cursors. */
  blockNumber: bigint('block_number', { mode: 'number' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The health of each TronGrid-compatible endpoint the chain watcher reads (TRONGRID_BASE_URLS), kept by the watcher
 * so that a rate-limit block is honoured across ticks and processes, and shown on the operator's health page.
 */
export const chainEndpoints = pgTable('chain_endpoints', {
  baseUrl: text('base_url').primaryKey(),
  /** Set by a 403/429 answer: no request goes to the endpoint before this time. */
  blockedUntil: timestamp('blocked_until', { withTimezone: true }),
  /** Since when the endpoint has failed (network error, timeout, 5xx); null once it answers again. */
  failingSince: timestamp('failing_since', { withTimezone: true }),
  lastError: text('last_error'),
  lastErrorAt: timestamp('last_error_at', { withTimezone: true }),
  lastOkAt: timestamp('last_ok_at', { withTimezone: true }),
  /** The last request of any outcome: a failing endpoint is tried again once this is old enough. */
  lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type ChainEndpointRow = typeof chainEndpoints.$inferSelect;

/**
 * Every confirmed USDT transfer to a receiving address, stored once whether it paid an order or not.
 * verdict: matched | no_order | wrong_amount | late
 */
export const chainTransfers = pgTable(
  'chain_transfers',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** The USDT chain the transfer was on (TRC20, ERC20, BEP20, POLYGON): a transaction id is unique only within it. */
    chain: text('chain').notNull().default('TRC20'),
    transactionId: text('transaction_id').notNull(),
    eventIndex: integer('event_index').notNull(),
    blockNumber: bigint('block_number', { mode: 'number' }).notNull(),
    blockTime: timestamp('block_time', { withTimezone: true }).notNull(),
    fromAddress: text('from_address').notNull(),
    toAddress: text('to_address').notNull(),
    receivingAddressId: bigint('receiving_address_id', { mode: 'number' })
      .notNull()
      .references(() => receivingAddresses.id),
    /** The token's raw value (6 decimals; 18 on BEP20), exact. */
    valueRaw: numeric('value_raw', { precision: 78, scale: 0 }).notNull(),
    verdict: text('verdict').notNull(),
    orderId: bigint('order_id', { mode: 'number' }).references(() => orders.id),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    unique('chain_transfers_event_key').on(table.chain, table.transactionId, table.eventIndex),
    index('chain_transfers_verdict_idx').on(table.verdict),
    // An order's page and checkout list the transfers linked to it that did not pay it.
    index('chain_transfers_order_idx').on(table.orderId),
  ],
);
