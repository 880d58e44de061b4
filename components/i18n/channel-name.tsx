import { useTranslations } from 'next-intl';

/** Names a payment channel in the reader's language (支付宝 for ALIPAY); a channel of no known name keeps its code. */
export function useChannelName(): (channel: string) => string {
  const t = useTranslations('common.channels');
  return (channel) => (t.has(channel) ? t(channel) : channel);
}

/** A payment channel's name in the reader's language. */
export function ChannelName({ channel }: { channel: string }) {
  return <>{useChannelName()(channel)}</>;
}

/** The same naming in an async server component, from its `getTranslations('common')`. */
export function channelNameIn(common: { has(key: string): boolean; (key: `channels.${string}`): string }): (channel: string) => string {
  return (channel) => (common.has(`channels.${channel}`) ? common(`channels.${channel}`) : channel);
}
