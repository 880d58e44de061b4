import type { NoticedChannel } from '../../notifications/close-notice';

/**
 * WECHAT's orders in its notices: named platformOrderNo, as its payment notification names them (the contract). Its own
 * module, so that its poller close orders (and write their expiry notices) without loading the channel.
 */
export const wechatNotices: NoticedChannel = { name: 'WECHAT', orderNumberField: 'platformOrderNo' };
