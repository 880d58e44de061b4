import { channelByCallbackSegment } from '.';
import type { Channel } from './channel';
import { metrics } from '../observability/metrics';

/** The upstream callback at /v1/api/callback/<segment>: the channel's receiver, or 404 when no channel has it. */
export async function receiveChannelCallback(segment: string, request: Request): Promise<Response> {
  const channel = channelByCallbackSegment(segment);
  if (!channel?.callback) return new Response('not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  return countedCallbackReceiver(channel)(request);
}

/** The channel's callback receiver, counting each callback that arrives (what it was judged is counted where it is recorded). */
export function countedCallbackReceiver(channel: Pick<Channel, 'name' | 'callback'>): (request: Request) => Promise<Response> {
  const receive = channel.callback!;
  const received = metrics().callbacksReceived.labels({ channel: channel.name });
  return (request) => {
    received.inc();
    return receive(request);
  };
}
