import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';

/**
 * An operator set aside an item of the attention list (an unmatched chain transfer, a rejected upstream callback, a
 * notification that failed every attempt) with a note. The item itself is never changed; it leaves the list, and
 * the dismissal is in the audit log too.
 */
export const attentionDismissals = pgTable(
  'attention_dismissals',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** 'transfer' (chain_transfers), 'callback' (upstream_callbacks) or 'notification' (notifications). */
    kind: text('kind').notNull(),
    itemId: bigint('item_id', { mode: 'number' }).notNull(),
    note: text('note').notNull(),
    actor: text('actor').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    unique('attention_dismissals_item_key').on(table.kind, table.itemId),
    check('attention_dismissals_kind_check', sql`${table.kind} in ('transfer', 'callback', 'notification')`),
  ],
);

export type AttentionDismissalRow = typeof attentionDismissals.$inferSelect;
