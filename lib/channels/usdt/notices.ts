import type { NoticedChannel } from '../../notifications/close-notice';

/**
 * USDT's orders in its notices: named orderNo, as its payment notification names them (the contract). Its own
 * module, so that its expiry and its slots close orders (and write their expiry notices) without loading the channel.
 */
export const usdtNotices: NoticedChannel = { name: 'USDT', orderNumberField: 'orderNo' };
