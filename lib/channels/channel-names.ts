/**
 * The channels' names (payTypes, orders.channel), written once: the registry (lib/channels/index.ts) is typed against
 * them and the CHECK constraints of orders.channel and upstream_credentials.channel (lib/db/schema) list them. It
 * imports nothing, so the schema can read it without reaching the channels' code. A CHECK constraint is fixed in a
 * migration: a new name here means a generated migration; lib/channels/registry.test.ts compares the lists.
 */
export const CHANNEL_NAMES = ['USDT', 'ALIPAY', 'WECHAT', 'YHT'] as const;

export type ChannelName = (typeof CHANNEL_NAMES)[number];

/** The payType absent means the first channel, USDT (the contract's original channel). */
export const DEFAULT_CHANNEL: ChannelName = 'USDT';

/** The channels whose orders are placed with the merchant's own upstream credentials (their `credentials` part). */
export const CREDENTIAL_CHANNEL_NAMES = ['ALIPAY', 'WECHAT'] as const satisfies readonly ChannelName[];

