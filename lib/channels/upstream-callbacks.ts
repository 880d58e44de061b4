import type { Database } from '../db/client';
import { upstreamCallbacks } from '../db/schema';
import { countCallback } from '../observability/metrics';

export type CallbackVerdict =
  | 'paid'
  /** A refund notification that moved (or confirmed) a refund's state. */
  | 'refund'
  | 'duplicate'
  | 'ignored'
  | 'late_payment'
  | 'bad_signature'
  | 'wrong_merchant'
  | 'unknown_order'
  | 'amount_mismatch'
  | 'trade_no_mismatch'
  | 'malformed';

export interface UpstreamCallbackEntry {
  channel: string;
  kind?: 'callback' | 'query';
  receivedAt: Date;
  rawBody?: string;
  outTradeNo?: string;
  tradeNo?: string;
  orderId?: number;
  verdict: CallbackVerdict;
  detail?: string;
  answer?: string;
}

const MAX_RAW_BODY = 8 * 1024;

/** Records one callback (or a payment the poller found) with what was made of it; call it in the deciding transaction. */
export async function recordUpstreamCallback(db: Database, entry: UpstreamCallbackEntry): Promise<number> {
  const [row] = await db
    .insert(upstreamCallbacks)
    .values({
      channel: entry.channel,
      kind: entry.kind ?? 'callback',
      receivedAt: entry.receivedAt,
      rawBody: entry.rawBody === undefined ? null : entry.rawBody.slice(0, MAX_RAW_BODY),
      outTradeNo: entry.outTradeNo?.slice(0, 128) ?? null,
      tradeNo: entry.tradeNo?.slice(0, 128) ?? null,
      orderId: entry.orderId ?? null,
      verdict: entry.verdict,
      detail: entry.detail ?? null,
      answer: entry.answer ?? null,
    })
    .returning({ id: upstreamCallbacks.id });
  if ((entry.kind ?? 'callback') === 'callback') countCallback(entry.channel, entry.verdict);
  return row!.id;
}
