import type { Database } from '@/lib/db/client';
import { formatYuan } from './protocol';
import { closeIfExpired, findByTradeNo } from './store';

/** What the simulated cashier shows for one of its orders (the page names the pay method in its language). */
export async function sandboxCashier(db: Database, tradeNo: string, now = new Date()) {
  if (!/^[A-Za-z0-9]{1,64}$/.test(tradeNo)) return undefined;
  const found = await findByTradeNo(db, tradeNo);
  if (!found) return undefined;
  const order = await closeIfExpired(db, found, now);
  return {
    tradeNo: order.tradeNo,
    outTradeNo: order.outTradeNo,
    subject: order.subject,
    amount: formatYuan(order.amountMinor),
    payMethod: order.payMethod,
    status: order.status,
    expireAt: order.expireAt,
    returnUrl: order.returnUrl,
    notifyCount: order.notifyCount,
    lastNotifyResult: order.lastNotifyResult,
  };
}
