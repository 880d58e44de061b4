import { receiveChannelCallback } from '@/lib/channels/receive-channel-callback';

export const dynamic = 'force-dynamic';

/** Each channel's upstream callback (/v1/api/callback/<channel name in lower case>), as the registry lists them. */
export async function POST(request: Request, { params }: { params: Promise<{ channel: string }> }): Promise<Response> {
  return receiveChannelCallback((await params).channel, request);
}
