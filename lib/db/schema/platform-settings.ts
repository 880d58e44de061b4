import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Operator-managed settings, one row per key; values are text parsed by lib/settings. */
export const platformSettings = pgTable('platform_settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
