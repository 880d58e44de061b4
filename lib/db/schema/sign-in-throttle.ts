import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Failed password checks per key ('account:<email>', 'ip:<address>', …) in a fixed window, shared by every web
 * process (see lib/accounts/sign-in-throttle.ts for the limits).
 */
export const signInThrottle = pgTable('sign_in_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
});
