import { bigint, integer, pgTable, timestamp } from 'drizzle-orm/pg-core';
import { merchants } from '../../db/schema/merchants';

/**
 * A merchant's share of the shared receiving-address pool, where the operator set one (lib/channels/usdt/fair-share.ts
 * has the rule and the defaults). Per network, counted in (address, amount) slots its USDT orders hold: pending
 * orders and expired ones in their cool-down. NULL: the default; 0: no limit.
 */
export const usdtMerchantLimits = pgTable('usdt_merchant_limits', {
  merchantId: bigint('merchant_id', { mode: 'number' })
    .primaryKey()
    .references(() => merchants.id),
  /** Slots the merchant's orders may hold on one network. */
  maxHeldSlots: integer('max_held_slots'),
  /** Slots it may hold of one amount and the next cent (the slots one submit of that amount could take). */
  maxAmountSlots: integer('max_amount_slots'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type UsdtMerchantLimitsRow = typeof usdtMerchantLimits.$inferSelect;
