import type { NoticedChannel } from '../../notifications/close-notice';

/**
 * YHT's orders in its notices: named orderNo, as its payment notification names them (the contract). Its own
 * module, so that its poller close orders (and write their expiry notices) without loading the channel.
 */
export const yhtNotices: NoticedChannel = { name: 'YHT', orderNumberField: 'orderNo' };
