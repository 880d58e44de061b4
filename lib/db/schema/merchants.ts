import { bigserial, boolean, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { DEFAULT_TIME_ZONE } from '../../i18n/locales';

export const merchants = pgTable('merchants', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  appId: text('app_id').notNull().unique(),
  name: text('name').notNull(),
  /** AES-256-GCM envelope (see lib/crypto/secret-box.ts); never the plain secret. */
  appSecretEncrypted: text('app_secret_encrypted').notNull(),
  /**
   * The AppSecret before the last rotation, while it still signs valid requests (an overlap the merchant chose, so a
   * deployment can switch over): until previousAppSecretUntil (at most 24 h) or until the merchant ends it.
   */
  previousAppSecretEncrypted: text('previous_app_secret_encrypted'),
  previousAppSecretUntil: timestamp('previous_app_secret_until', { withTimezone: true }),
  orderPermission: boolean('order_permission').notNull().default(false),
  /** The IANA zone the merchant's back office shows times and counts calendar days in (lib/merchants/time-zone.ts). */
  timeZone: text('time_zone').notNull().default(DEFAULT_TIME_ZONE),
  /**
   * Opt-in: a notice (status CLOSED or EXPIRED) when one of its orders is closed or expires, to the order's notifyUrl.
   * Off by default: a payment handler that reads every notice as "paid" must never receive one.
   */
  closeNotices: boolean('close_notices').notNull().default(false),
  /** The owner's rule that every member of the team signs in with a second factor (lib/accounts/team-second-factor.ts). */
  teamRequiresSecondFactor: boolean('team_requires_second_factor').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type MerchantRow = typeof merchants.$inferSelect;
