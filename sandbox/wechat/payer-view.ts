import type { Database } from '@/lib/db/client';
import { h5VisitRefusal } from './h5-visit';
import { closeIfExpired, findByPayId } from './store';

/**
 * What the simulated WeChat payer page shows for one transaction (by the id in its code_url / h5_url). `visit` is
 * the h5_url's `package` and the opening phone's address: an MWEB order refuses an expired link or another address.
 */
export async function sandboxWechatPayer(db: Database, payId: string, visit: { package?: string | null; payerIp: string }, now = new Date()) {
  if (!/^[A-Za-z0-9_-]{8,64}$/.test(payId)) return undefined;
  const found = await findByPayId(db, payId);
  if (!found) return undefined;
  const order = await closeIfExpired(db, found, now);
  return {
    payId: order.payId,
    outTradeNo: order.outTradeNo,
    mchId: order.mchId,
    description: order.description,
    amount: `${order.amountMinor / 100n}.${(order.amountMinor % 100n).toString().padStart(2, '0')}`,
    tradeType: order.tradeType,
    tradeState: order.tradeState as 'NOTPAY' | 'SUCCESS' | 'CLOSED',
    timeExpire: order.timeExpire,
    notifyCount: order.notifyCount,
    lastNotifyResult: order.lastNotifyResult,
    refusal: order.tradeState === 'NOTPAY' ? h5VisitRefusal(order, visit, now) : undefined,
  };
}
