import type { Database } from '@/lib/db/client';
import { formatYuan } from './protocol';
import { closeIfExpired, findByTradeNo } from './store';

export const METHOD_NAMES: Record<string, string> = {
  wxH5: 'WeChat Pay (H5)',
  wxPub: 'WeChat Pay (official account)',
  wxLite: 'WeChat Pay (mini program)',
  aliPay: 'Alipay',
  unionPay: 'UnionPay QuickPass',
  bankCard: 'Online banking',
  bankFast: 'Bank card quick pay',
};

/** What the simulated cashier shows for one of its orders. */
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
    method: METHOD_NAMES[order.payMethod] ?? order.payMethod,
    status: order.status,
    expireAt: order.expireAt,
    returnUrl: order.returnUrl,
    notifyCount: order.notifyCount,
    lastNotifyResult: order.lastNotifyResult,
  };
}
