import { upstreamCallbackRoute } from '@/lib/channels/upstream-callback-route';
import { receiveWechatCallback, wechatCallbackReply } from '@/lib/channels/wechat/receive-callback';
import { getDb } from '@/lib/db/client';

export const dynamic = 'force-dynamic';

/** WeChat Pay's payment notifications (docs/channels/wechat.md): 204 when handled, 4xx/5xx `{code:"FAIL"}` to be sent again. */
export const POST = upstreamCallbackRoute(
  'WECHAT',
  async (rawBody, now, headers) => wechatCallbackReply(await receiveWechatCallback(getDb(), rawBody, headers, now)),
  { failure: (status) => Response.json({ code: 'FAIL', message: status === 413 ? 'body too large' : status === 429 ? 'too many refused callbacks, send again later' : 'internal error, send again later' }, { status }) },
);
