import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The Alipay simulator's keys (sandbox/alipay/). Kept with the channel, not the simulator: `credential add --sandbox`
 * (production code, which never imports sandbox/) binds a merchant's credential to them. The table stays empty where
 * the sandbox is off.
 */
/**
 * The simulator's key pairs, one row ('default'): the "Alipay" pair (signs notifications and responses; merchants
 * verify with its public key) and the sandbox merchant application (app id and pair: the simulator verifies the
 * requests with the app public key). Plain text: these are throwaway keys of a simulator, never real ones.
 */
export const sandboxAlipayKeys = pgTable('sandbox_alipay_keys', {
  name: text('name').primaryKey(),
  appId: text('app_id').notNull(),
  appPrivateKey: text('app_private_key').notNull(),
  appPublicKey: text('app_public_key').notNull(),
  alipayPrivateKey: text('alipay_private_key').notNull(),
  alipayPublicKey: text('alipay_public_key').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export type SandboxAlipayKeysRow = typeof sandboxAlipayKeys.$inferSelect;
