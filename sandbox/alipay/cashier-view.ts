import { getDb, type Database } from '@/lib/db/client';
import { formatYuan } from './protocol';
import { paySandboxTrade, SandboxPayRefused } from './pay';
import { closeIfExpired, findByTradeNo } from './store';

/** What the simulated Alipay cashier shows for one of its trades. */
export async function sandboxCashier(db: Database, tradeNo: string, now = new Date()) {
  if (!/^\d{1,64}$/.test(tradeNo)) return undefined;
  const found = await findByTradeNo(db, tradeNo);
  if (!found) return undefined;
  const trade = await closeIfExpired(db, found, now);
  return {
    tradeNo: trade.tradeNo,
    outTradeNo: trade.outTradeNo,
    subject: trade.subject,
    body: trade.body,
    amount: formatYuan(trade.amountMinor),
    wap: trade.method === 'alipay.trade.wap.pay',
    status: trade.status as 'WAIT_BUYER_PAY' | 'TRADE_SUCCESS' | 'TRADE_CLOSED',
    timeExpire: trade.timeExpire,
    notifyCount: trade.notifyCount,
    lastNotifyResult: trade.lastNotifyResult,
  };
}

/** The cashier's Pay button (a plain form POST): pays, sends the notification, then sends the payer to return_url. */
export async function handleCashierPay(tradeNo: string, db: Database = getDb()): Promise<Response> {
  const cashier = `/sandbox/alipay/cashier/${encodeURIComponent(tradeNo)}`;
  try {
    const { returnUrl } = await paySandboxTrade(db, { tradeNo });
    return new Response(null, { status: 303, headers: { location: returnUrl ?? `${cashier}?paid=1` } });
  } catch (error) {
    if (!(error instanceof SandboxPayRefused)) throw error;
    return new Response(null, { status: 303, headers: { location: `${cashier}?refused=${encodeURIComponent(error.message)}` } });
  }
}
