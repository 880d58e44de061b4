import { upstreamCallbackRoute } from '@/lib/channels/upstream-callback-route';
import { receiveYhtCallback } from '@/lib/channels/yht/receive-callback';
import { getDb } from '@/lib/db/client';

export const dynamic = 'force-dynamic';

/** The YHT aggregator's asynchronous payment callback (docs/channels/yht.md). */
export const POST = upstreamCallbackRoute('YHT', async (rawBody, now) => (await receiveYhtCallback(getDb(), rawBody, now)).answer);
