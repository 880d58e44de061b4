import { receiveAlipayNotify } from '@/lib/channels/alipay/receive-notify';
import { upstreamCallbackRoute } from '@/lib/channels/upstream-callback-route';
import { getDb } from '@/lib/db/client';

export const dynamic = 'force-dynamic';

/** Alipay's asynchronous payment notification (docs/channels/alipay.md). */
export const POST = upstreamCallbackRoute('ALIPAY', async (rawBody, now) => (await receiveAlipayNotify(getDb(), rawBody, now)).answer);
