import { invalidParameter } from '../../errors/domain-error';
import { present, type RequestFields } from '../../validation/request-fields';
import { closeWechatOrderUpstream } from './close-order';
import { wechatReconciliation } from './bill-source';
import type { Channel } from '../channel';
import { wechatNotices } from './notices';
import { wechatCredentials } from './credentials';
import { wechatOpenApi } from './open-api';
import { getDb } from '../../db/client';
import { formatMinorUnits } from '../../money/decimal-amount';
import { createDirectOrder } from '../../orders/create-direct-order';
import { parseDirectSubmit } from '../direct/direct-request';
import { directCreateData, directQueryData } from '../../orders/direct-view';
import { upstreamCallbackRoute } from '../../callers/upstream-callback';
import { wechatChannelAdapter } from './adapter';
import { wechatNotificationExample, wechatQueryExample, wechatSubmitExample } from './api-examples';
import { wechatTestOrder } from './test-order';
import { findWechatCheckout, type WechatCheckout } from './checkout-view';
import { wechatPollerJob } from './poll-pending-orders';
import { receiveWechatCallback, wechatCallbackReply } from './receive-callback';
import { wechatRefunds } from './refunds';
import { wechatAbnormalRemedy } from './abnormal-refund';

/** WECHAT: 'native' (PC QR code) or 'h5' (mobile browser); JSAPI, mini-program and in-app payments are not offered. */
export function wechatPayMethod(fields: RequestFields): string {
  const value = present(fields, 'payMethod');
  if (value === undefined) throw invalidParameter('payMethod is required');
  if (value !== 'native' && value !== 'h5') throw invalidParameter('payMethod must be native or h5');
  return value;
}

const failureReason = (status: 413 | 429 | 500) =>
  status === 413 ? 'body too large' : status === 429 ? 'too many refused callbacks, send again later' : 'internal error, send again later';

/** WeChat Pay Native QR / H5 on the merchant's own credential (docs/channels/wechat.md). */
export const wechatChannel: Channel<WechatCheckout> = {
  // Its name and how its notices name an order, written once in notices.ts (which its pollers load alone).
  ...wechatNotices,
  label: 'WECHAT',
  successMessage: 'ok',
  async submit({ db, merchant, fields, clientAddress, requestId, isTest }) {
    const created = await createDirectOrder(db, merchant.id, wechatChannelAdapter, parseDirectSubmit(wechatPayMethod, fields), { clientIp: clientAddress, requestId, isTest });
    return directCreateData(wechatChannelAdapter, created);
  },
  queryData: (order, now) => directQueryData(order, now),
  checkoutStatus: (db, payToken, now) => findWechatCheckout(db, payToken, now),
  checkoutView: (db, payToken, now) => findWechatCheckout(db, payToken, now),
  notificationFields: (order) => ({ platformOrderNo: order.orderNo, amount: formatMinorUnits(order.payAmountMinor) }),
  /** WeChat Pay's payment notifications: 204 when handled, 4xx/5xx `{code:"FAIL"}` to be sent again. */
  callback: upstreamCallbackRoute(
    'WECHAT',
    async (rawBody, now, headers) => wechatCallbackReply(await receiveWechatCallback(getDb(), rawBody, headers, now)),
    { failure: (status) => Response.json({ code: 'FAIL', message: failureReason(status) }, { status }) },
  ),
  // The simulated v3 API (under the default WECHAT_API_BASE_URL); its payer pages are the payer's.
  sandboxApiPaths: [/^\/sandbox\/wechat\/v3\//],
  refunds: { ...wechatRefunds, abnormalRemedy: wechatAbnormalRemedy },
  closeUpstream: closeWechatOrderUpstream,
  jobs: [wechatPollerJob],
  reconciliation: wechatReconciliation,
  credentials: wechatCredentials,
  examples: { submit: wechatSubmitExample, query: wechatQueryExample, notification: wechatNotificationExample },
  testOrder: wechatTestOrder,
  openApi: wechatOpenApi,
};
