import { channelByCallbackSegment } from '.';

/** The upstream callback at /v1/api/callback/<segment>: the channel's receiver, or 404 when no channel has it. */
export async function receiveChannelCallback(segment: string, request: Request): Promise<Response> {
  const receive = channelByCallbackSegment(segment)?.callback;
  if (!receive) return new Response('not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  return receive(request);
}
