import type { Database } from '@/lib/db/client';
import { sandboxWechatKeysOf } from '@/lib/channels/wechat/sandbox-keys';
import { transactionOf } from './api';
import { beijingTime, encryptResource, notificationId, platformSignatureHeaders } from './protocol';
import { defaultSigner } from './signer';
import { closeIfExpired, findAnyByOutTradeNo, findByPayId, markPaid, recordNotify, type SandboxWechatOrder } from './store';

export class SandboxWechatPayRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SandboxWechatPayRefused';
  }
}

export interface NotifyResult {
  url: string;
  httpStatus?: number;
  body: string;
  error?: string;
  /** WeChat's rule: 200 or 204 acknowledges; anything else is sent again later. */
  acknowledged: boolean;
}

export interface WechatPayResult {
  order: SandboxWechatOrder;
  newlyPaid: boolean;
  notify?: NotifyResult;
}

/** The TRANSACTION.SUCCESS notification of a paid order: JSON body, resource encrypted under the APIv3 key, signed headers. */
export async function notificationOf(db: Database, order: SandboxWechatOrder, now: Date): Promise<{ body: string; headers: Record<string, string> }> {
  const keys = await sandboxWechatKeysOf(db);
  const body = JSON.stringify({
    id: notificationId(),
    create_time: beijingTime(now),
    resource_type: 'encrypt-resource',
    event_type: 'TRANSACTION.SUCCESS',
    summary: '支付成功',
    resource: encryptResource(JSON.stringify(transactionOf(order)), keys.apiV3Key),
  });
  return { body, headers: platformSignatureHeaders(body, defaultSigner(keys), now) };
}

/** POSTs the notification to the order's notify_url and records the answer on the order. */
export async function sendNotification(db: Database, order: SandboxWechatOrder, now = new Date()): Promise<NotifyResult> {
  const { body, headers } = await notificationOf(db, order, now);
  let result: NotifyResult;
  try {
    const response = await fetch(order.notifyUrl, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'user-agent': 'Mozilla/4.0 (sandbox WeChat Pay)' },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
    });
    const text = (await response.text()).slice(0, 1024);
    result = { url: order.notifyUrl, httpStatus: response.status, body: text, acknowledged: response.status === 200 || response.status === 204 };
  } catch (error) {
    result = { url: order.notifyUrl, body: '', error: error instanceof Error ? error.message : String(error), acknowledged: false };
  }
  await recordNotify(db, order, now, result.error ? `error: ${result.error}` : `HTTP ${result.httpStatus} ${JSON.stringify(result.body.slice(0, 200))}`);
  return result;
}

/**
 * The payer pays: a NOTPAY order becomes SUCCESS and the notification is sent. Paying a paid order sends the
 * notification again (as WeChat's retries would). `notify: false` simulates a lost notification.
 */
export async function paySandboxWechatOrder(
  db: Database,
  ref: { payId: string } | { outTradeNo: string },
  options: { notify?: boolean; now?: Date } = {},
): Promise<WechatPayResult> {
  const now = options.now ?? new Date();
  const found = 'payId' in ref ? await findByPayId(db, ref.payId) : await findAnyByOutTradeNo(db, ref.outTradeNo);
  if (!found) throw new SandboxWechatPayRefused(`no sandbox WeChat order ${'payId' in ref ? ref.payId : ref.outTradeNo}`);
  const current = await closeIfExpired(db, found, now);
  if (current.tradeState === 'CLOSED') throw new SandboxWechatPayRefused(`order ${current.outTradeNo} is closed`);
  const paid = current.tradeState === 'NOTPAY' ? await markPaid(db, current, now) : current;
  const newlyPaid = current.tradeState === 'NOTPAY' && paid.tradeState === 'SUCCESS';
  if (options.notify === false) return { order: paid, newlyPaid };
  return { order: paid, newlyPaid, notify: await sendNotification(db, paid, now) };
}
