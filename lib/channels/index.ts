import type { Database } from '../db/client';
import { invalidParameter } from '../errors/domain-error';
import type { ChannelCredentials, StoredCredentialFields } from '../credentials/channel-credentials';
import { invalidCredential } from '../credentials/errors';
import { domainMessage } from '../errors/domain-message';
import { present, type RequestFields } from '../validation/request-fields';
import { alipayChannel } from './alipay/channel';
import type { Channel, NotifiedOrder } from './channel';
import { CHANNEL_NAMES, DEFAULT_CHANNEL, type ChannelName } from './channel-names';
import { usdtChannel } from './usdt/channel';
import { wechatChannel } from './wechat/channel';
import { yhtChannel } from './yht/channel';

/**
 * The registry: the service's channels by payType (the names of lib/channels/channel-names.ts, in the order pages
 * and documents show them). Submit, query, checkout, callbacks, background jobs, portal filters, the OpenAPI
 * document and the API examples all read it; adding a channel is a folder under lib/channels/, its name there and
 * a line here.
 */
const REGISTRY = {
  USDT: usdtChannel,
  ALIPAY: alipayChannel,
  WECHAT: wechatChannel,
  YHT: yhtChannel,
} as const satisfies Record<ChannelName, Channel>;

export { CHANNEL_NAMES, type ChannelName };

export const CHANNELS: readonly Channel[] = CHANNEL_NAMES.map((name) => REGISTRY[name]);

/** What a channel's checkout shows the payer, typed per channel (its Channel's checkoutView). */
export type CheckoutViewOf<Name extends ChannelName> = (typeof REGISTRY)[Name] extends Channel<infer View> ? View : never;

/** A channel's checkout view with the channel's name, so a page can pick the channel's own view component. */
export type ChannelCheckoutView = { [Name in ChannelName]: { channel: Name; view: CheckoutViewOf<Name> } }[ChannelName];

/** The checkout view behind a payUrl token of the named channel's order; undefined when the token is not one. */
export async function loadCheckoutView(channelName: ChannelName, db: Database, payToken: string, now: Date): Promise<ChannelCheckoutView | undefined> {
  const view: unknown = await REGISTRY[channelName].checkoutView(db, payToken, now);
  // The registry maps each name to its channel, so the view is that channel's (TypeScript cannot follow the pairing).
  return view === undefined ? undefined : ({ channel: channelName, view } as ChannelCheckoutView);
}

export { DEFAULT_CHANNEL };

export function isChannelName(value: string): value is ChannelName {
  return Object.hasOwn(REGISTRY, value);
}

/** The channel of an order (orders.channel); undefined for a name no channel has. */
export function channelNamed(name: string): Channel | undefined {
  return isChannelName(name) ? REGISTRY[name] : undefined;
}

/** The channel a request's payType names (absent: USDT), else 1003 naming the channels. */
export function channelOf(fields: RequestFields): Channel {
  const value = present(fields, 'payType') ?? DEFAULT_CHANNEL;
  if (!isChannelName(value)) throw invalidParameter(`payType must be one of ${CHANNEL_NAMES.join(', ')}`);
  return REGISTRY[value];
}

/** The order's channel's own fields of its payment notification (order number and amount, by the contract's names). */
export function notificationFieldsOf(order: NotifiedOrder & { channel: string }): Record<string, string> {
  const channel = channelNamed(order.channel);
  if (!channel) throw new Error(`order ${order.orderNo} has no known channel (${order.channel})`);
  return channel.notificationFields(order);
}

/** The path segment of a channel's upstream callback: /v1/api/callback/<segment>. */
export function callbackSegment(channel: Channel): string {
  return channel.name.toLowerCase();
}

/** The channel whose upstream callback is served at /v1/api/callback/<segment>. */
export function channelByCallbackSegment(segment: string): Channel | undefined {
  return CHANNELS.find((channel) => channel.callback && callbackSegment(channel) === segment);
}

/** A channel whose orders use the merchant's own upstream credentials, with its credential part. */
export type ChannelWithCredentials = Channel & { credentials: ChannelCredentials };

/** The channels whose orders use the merchant's own upstream credentials. */
export function credentialChannels(): ChannelWithCredentials[] {
  return CHANNELS.filter((channel): channel is ChannelWithCredentials => channel.credentials !== undefined);
}

/** The channel a credential names, with its credential part, else an invalid_credential DomainError naming the field. */
export function credentialChannelNamed(channelName: string): ChannelWithCredentials {
  const channels = credentialChannels();
  const channel = channels.find((candidate) => candidate.name === channelName);
  if (!channel) throw invalidCredential({ channel: domainMessage('credentialFields.unknownChannel', { channels: channels.map(({ name }) => name).join(', ') }) });
  return channel;
}

/** A stored credential's non-secret fields as one line, as its channel describes them (portal and console lists). */
export function describeCredential(credential: { channel: string } & StoredCredentialFields): string {
  return credentialChannelNamed(credential.channel).credentials.describe(credential);
}
