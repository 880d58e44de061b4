import { bigint, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * How far the EVM watcher has read each chain: the last block it scanned that was final, and that block's hash, so
 * that a re-org below the cursor (the node now has another block at that height) is detected instead of skipped.
 * chain: the USDT chain name (ERC20 | BEP20 | POLYGON).
 */
export const evmChainCursors = pgTable('evm_chain_cursors', {
  chain: text('chain').primaryKey(),
  blockNumber: bigint('block_number', { mode: 'bigint' }).notNull(),
  blockHash: text('block_hash').notNull(),
  /** Set while the node disagrees with blockHash: the watcher holds the chain and reports it until an operator acts. */
  reorgDetectedAt: timestamp('reorg_detected_at', { withTimezone: true }),
  reorgNodeHash: text('reorg_node_hash'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type EvmChainCursorRow = typeof evmChainCursors.$inferSelect;
