import { alipayAdapter } from '../alipay/adapter';
import { wechatChannelAdapter } from '../wechat/adapter';
import type { DirectChannelAdapter, DirectChannelName } from './direct-channel';

/**
 * The direct channels this service offers, by payType: the one place a channel is switched on. A channel without an
 * adapter here answers submit with 1003 "not available".
 */
export const DIRECT_CHANNEL_ADAPTERS: Readonly<Partial<Record<DirectChannelName, DirectChannelAdapter>>> = {
  ALIPAY: alipayAdapter,
  WECHAT: wechatChannelAdapter,
};

export function directChannelAdapter(channel: DirectChannelName): DirectChannelAdapter | undefined {
  return DIRECT_CHANNEL_ADAPTERS[channel];
}
