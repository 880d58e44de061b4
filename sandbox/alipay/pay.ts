import type { Database } from '@/lib/db/client';
import { ALIPAY_SANDBOX_SELLER_ID, alipaySandboxKeys, type AlipaySandboxKeys } from '@/lib/channels/alipay/sandbox-keys';
import { beijingTime, formatYuan, newNotifyId, NOTIFY_UNSIGNED, rsa2Sign, signedText } from './protocol';
import { closeIfExpired, findAnyByOutTradeNo, findByTradeNo, markPaid, recordNotify, type SandboxTrade } from './store';

export class SandboxPayRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SandboxPayRefused';
  }
}

export interface NotifyResult {
  url: string;
  httpStatus?: number;
  body: string;
  error?: string;
  /** Alipay's rule: HTTP 200 and the body exactly `success`. */
  acknowledged: boolean;
}

export interface PayResult {
  trade: SandboxTrade;
  /** Whether this call moved the trade to TRADE_SUCCESS (false: it was paid already; the notification is sent again). */
  newlyPaid: boolean;
  notify?: NotifyResult;
  /** Where the payer's browser goes next: return_url with Alipay's signed synchronous return parameters. */
  returnUrl?: string;
}

/** The sandbox buyer's account, as Alipay masks it in notifications. */
const BUYER_ID = '2088102177846880';
export const BUYER_LOGON_ID = 'san***@sandbox.com';

/** The signed asynchronous notification of a paid trade (trade_status_sync), as Alipay POSTs it. */
export function notificationForm(trade: SandboxTrade, keys: AlipaySandboxKeys, now = new Date()): Record<string, string> {
  const amount = formatYuan(trade.amountMinor);
  const fields: Record<string, string> = {
    notify_time: beijingTime(now),
    notify_type: 'trade_status_sync',
    notify_id: newNotifyId(),
    app_id: trade.appId,
    auth_app_id: trade.appId,
    charset: 'utf-8',
    version: '1.0',
    sign_type: 'RSA2',
    trade_no: trade.tradeNo,
    out_trade_no: trade.outTradeNo,
    buyer_id: BUYER_ID,
    buyer_logon_id: trade.buyerLogonId ?? BUYER_LOGON_ID,
    seller_id: ALIPAY_SANDBOX_SELLER_ID,
    trade_status: trade.status,
    total_amount: amount,
    receipt_amount: amount,
    invoice_amount: amount,
    buyer_pay_amount: amount,
    point_amount: '0.00',
    subject: trade.subject,
    gmt_create: beijingTime(trade.createdAt),
    gmt_payment: beijingTime(trade.paidAt ?? now),
    fund_bill_list: JSON.stringify([{ amount, fundChannel: 'ALIPAYACCOUNT' }]),
  };
  if (trade.body) fields.body = trade.body;
  if (trade.passbackParams) fields.passback_params = trade.passbackParams;
  fields.sign = rsa2Sign(signedText(fields, NOTIFY_UNSIGNED), keys.alipayPrivateKey);
  return fields;
}

/** POSTs the notification to the trade's notify_url and records the answer. */
export async function sendNotification(db: Database, trade: SandboxTrade, keys: AlipaySandboxKeys, now = new Date()): Promise<NotifyResult | undefined> {
  if (!trade.notifyUrl) return undefined;
  let result: NotifyResult;
  try {
    const response = await fetch(trade.notifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
      body: new URLSearchParams(notificationForm(trade, keys, now)).toString(),
      redirect: 'manual',
      signal: AbortSignal.timeout(10_000),
    });
    const body = (await response.text()).slice(0, 1024);
    result = { url: trade.notifyUrl, httpStatus: response.status, body, acknowledged: response.status === 200 && body.trim() === 'success' };
  } catch (error) {
    result = { url: trade.notifyUrl, body: '', error: error instanceof Error ? error.message : String(error), acknowledged: false };
  }
  await recordNotify(db, trade, now, result.error ? `error: ${result.error}` : `HTTP ${result.httpStatus} ${JSON.stringify(result.body.slice(0, 200))}`);
  return result;
}

/** return_url plus Alipay's signed synchronous return parameters (method alipay.trade.page.pay.return). */
export function returnUrlOf(trade: SandboxTrade, keys: AlipaySandboxKeys, now = new Date()): string | undefined {
  if (!trade.returnUrl) return undefined;
  const params: Record<string, string> = {
    charset: 'utf-8',
    out_trade_no: trade.outTradeNo,
    method: `${trade.method}.return`,
    total_amount: formatYuan(trade.amountMinor),
    trade_no: trade.tradeNo,
    auth_app_id: trade.appId,
    version: '1.0',
    app_id: trade.appId,
    sign_type: 'RSA2',
    seller_id: ALIPAY_SANDBOX_SELLER_ID,
    timestamp: beijingTime(now),
  };
  params.sign = rsa2Sign(signedText(params, NOTIFY_UNSIGNED), keys.alipayPrivateKey);
  const url = new URL(trade.returnUrl);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.toString();
}

/**
 * The payer pays at the cashier: a waiting trade becomes TRADE_SUCCESS and the notification is sent. Paying a
 * trade that is paid already sends the notification again (as Alipay's retries would). `notify: false` simulates a
 * lost notification (the service's poller must find the payment).
 */
export async function paySandboxTrade(
  db: Database,
  ref: { tradeNo: string } | { outTradeNo: string },
  options: { notify?: boolean; now?: Date } = {},
): Promise<PayResult> {
  const now = options.now ?? new Date();
  const keys = await alipaySandboxKeys(db);
  const found = 'tradeNo' in ref ? await findByTradeNo(db, ref.tradeNo) : await findAnyByOutTradeNo(db, ref.outTradeNo);
  if (!found) throw new SandboxPayRefused(`no sandbox Alipay trade ${'tradeNo' in ref ? ref.tradeNo : ref.outTradeNo}`);
  const current = await closeIfExpired(db, found, now);
  if (current.status === 'TRADE_CLOSED') throw new SandboxPayRefused(`trade ${current.outTradeNo} is closed (by alipay.trade.close, or wap pay past time_expire ${beijingTime(current.timeExpire)} Beijing time)`);
  const paid = current.status === 'WAIT_BUYER_PAY' ? await markPaid(db, current, now, BUYER_LOGON_ID) : current;
  const newlyPaid = current.status === 'WAIT_BUYER_PAY' && paid.status === 'TRADE_SUCCESS';
  const notify = options.notify === false ? undefined : await sendNotification(db, paid, keys, now);
  return { trade: paid, newlyPaid, notify, returnUrl: returnUrlOf(paid, keys, now) };
}
