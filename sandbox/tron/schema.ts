import { bigint, bigserial, index, numeric, pgTable, text } from 'drizzle-orm/pg-core';

/** The sandbox TRON ledger (development and tests only): simulated USDT transfers with blocks. */
export const sandboxTronTransfers = pgTable(
  'sandbox_tron_transfers',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    transactionId: text('transaction_id').notNull().unique(),
    blockNumber: bigint('block_number', { mode: 'number' }).notNull(),
    blockTimestampMs: bigint('block_timestamp_ms', { mode: 'number' }).notNull(),
    fromAddress: text('from_address').notNull(),
    toAddress: text('to_address').notNull(),
    valueRaw: numeric('value_raw', { precision: 78, scale: 0 }).notNull(),
    /** When the sandbox indexer lists the transfer: its block time, or later for a block indexed late. */
    indexedAtMs: bigint('indexed_at_ms', { mode: 'number' }),
  },
  (table) => [index('sandbox_tron_transfers_time_idx').on(table.blockTimestampMs, table.id), index('sandbox_tron_transfers_block_idx').on(table.blockNumber)],
);
