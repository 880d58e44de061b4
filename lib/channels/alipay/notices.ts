import type { NoticedChannel } from '../../notifications/close-notice';

/**
 * ALIPAY's orders in its notices: named platformOrderNo, as its payment notification names them (the contract). Its own
 * module, so that its poller close orders (and write their expiry notices) without loading the channel.
 */
export const alipayNotices: NoticedChannel = { name: 'ALIPAY', orderNumberField: 'platformOrderNo' };
