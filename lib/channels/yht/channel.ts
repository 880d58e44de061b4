import { closeYhtOrderUpstream } from './close-order';
import type { Channel } from '../channel';
import { yhtNotices } from './notices';
import { yhtOpenApi } from './open-api';
import { formatMinorUnits } from '../../money/decimal-amount';
import { createDirectOrder } from '../../orders/create-direct-order';
import { upstreamCallbackRoute } from '../../callers/upstream-callback';
import { getDb } from '../../db/client';
import { yhtAdapter } from './adapter';
import { yhtNotificationExample, yhtQueryExample, yhtSubmitExample } from './api-examples';
import { yhtTestOrder } from './test-order';
import { findYhtCheckout, type YhtCheckout } from './checkout-view';
import { yhtPollerJob } from './poll-pending-orders';
import { answerYhtCallback } from './receive-callback';
import { parseYhtSubmit } from './yht-request';
import { yhtCreateData, yhtQueryData } from './yht-view';

/** The YHT fiat aggregator, on the service's own YHT account (docs/channels/yht.md). */
export const yhtChannel: Channel<YhtCheckout> = {
  // Its name and how its notices name an order, written once in notices.ts (which its pollers load alone).
  ...yhtNotices,
  label: 'YHT',
  successMessage: 'success',
  async submit({ db, merchant, fields, clientAddress, requestId, isTest }) {
    const { order } = await createDirectOrder(db, merchant.id, yhtAdapter, parseYhtSubmit(fields), { clientIp: clientAddress, requestId, isTest });
    return yhtCreateData(order);
  },
  queryData: (order, now) => yhtQueryData(order, now),
  checkoutStatus: (db, payToken, now) => findYhtCheckout(db, payToken, now),
  checkoutView: (db, payToken, now) => findYhtCheckout(db, payToken, now),
  notificationFields: (order) => ({ orderNo: order.orderNo, payMoney: formatMinorUnits(order.payAmountMinor) }),
  /** The aggregator's asynchronous payment callback: a text answer, `success` when taken; 404 where YHT is not configured. */
  callback: upstreamCallbackRoute('YHT', (rawBody, now) => answerYhtCallback(getDb(), rawBody, now)),
  // The simulated aggregator's API (under the default YHT_BASE_URL); its cashier pages are the payer's.
  sandboxApiPaths: [/^\/sandbox\/yht\/api\//],
  refunds: { offered: false, refusal: "YHT refunds are not offered: the YHT protocol has no refund request; refund the payer through YHT's merchant back office" },
  closeUpstream: closeYhtOrderUpstream,
  jobs: [yhtPollerJob],
  examples: { submit: yhtSubmitExample, query: yhtQueryExample, notification: yhtNotificationExample },
  testOrder: yhtTestOrder,
  openApi: yhtOpenApi,
};
