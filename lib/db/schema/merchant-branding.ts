import { bigint, check, customType, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { merchants } from './merchants';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/**
 * What the payer's checkout shows of the merchant: the name it chose for payers and an optional logo. The logo's
 * bytes live here (served same-origin by the checkout), never a link to another site the payer's browser would call.
 */
export const merchantBranding = pgTable(
  'merchant_branding',
  {
    merchantId: bigint('merchant_id', { mode: 'number' })
      .primaryKey()
      .references(() => merchants.id, { onDelete: 'cascade' }),
    displayName: text('display_name'),
    logoType: text('logo_type'),
    logoBytes: bytea('logo_bytes'),
    /** Bumped on every logo change: part of the logo's URL, so a cached old logo is never shown. */
    logoVersion: integer('logo_version').notNull().default(0),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    check('merchant_branding_display_name_length', sql`char_length(${table.displayName}) BETWEEN 1 AND 60`),
    check('merchant_branding_logo_type', sql`${table.logoType} IN ('image/png', 'image/jpeg', 'image/webp')`),
    check('merchant_branding_logo_pair', sql`(${table.logoType} IS NULL) = (${table.logoBytes} IS NULL)`),
    check('merchant_branding_logo_size', sql`octet_length(${table.logoBytes}) <= 102400`),
  ],
);

export type MerchantBrandingRow = typeof merchantBranding.$inferSelect;
