import { DomainError } from '../../errors/domain-error';
import { present, type RequestFields } from '../../validation/request-fields';
import { closeAlipayOrderUpstream } from './close-order';
import type { Channel } from '../channel';
import { alipayNotices } from './notices';
import { alipayCredentials } from './credentials';
import { alipayOpenApi } from './open-api';
import { getDb } from '../../db/client';
import { formatMinorUnits } from '../../money/decimal-amount';
import { createDirectOrder } from '../../orders/create-direct-order';
import { parseDirectSubmit } from '../direct/direct-request';
import { directCreateData, directQueryData } from '../../orders/direct-view';
import { upstreamCallbackRoute } from '../../callers/upstream-callback';
import { alipayAdapter } from './adapter';
import { alipayNotificationExample, alipayQueryExample, alipaySubmitExample } from './api-examples';
import { alipayTestOrder } from './test-order';
import { findAlipayCheckout, type AlipayCheckout } from './checkout-view';
import { alipayPollerJob } from './poll-pending-orders';
import { receiveAlipayNotify } from './receive-notify';
import { alipayRefunds } from './refunds';
import { alipayReconciliation } from './bill-source';

/** ALIPAY: 'web' (PC website) or 'wap' (mobile website), else 1001 as the contract fixes it. */
export function alipayPayMethod(fields: RequestFields): string {
  const value = present(fields, 'payMethod');
  if (value !== 'web' && value !== 'wap') throw new DomainError('invalid_pay_method');
  return value;
}

/** Alipay PC / mobile website payment on the merchant's own credential (docs/channels/alipay.md). */
export const alipayChannel: Channel<AlipayCheckout> = {
  // Its name and how its notices name an order, written once in notices.ts (which its pollers load alone).
  ...alipayNotices,
  label: 'ALIPAY',
  successMessage: 'ok',
  async submit({ db, merchant, fields, clientAddress, requestId, isTest }) {
    const created = await createDirectOrder(db, merchant.id, alipayAdapter, parseDirectSubmit(alipayPayMethod, fields), { clientIp: clientAddress, requestId, isTest });
    return directCreateData(alipayAdapter, created);
  },
  queryData: (order, now) => directQueryData(order, now),
  // The status poll needs the state only: no gateway URL is built.
  checkoutStatus: (db, payToken, now) => findAlipayCheckout(db, payToken, now, { gatewayUrl: false }),
  checkoutView: (db, payToken, now) => findAlipayCheckout(db, payToken, now),
  notificationFields: (order) => ({ platformOrderNo: order.orderNo, amount: formatMinorUnits(order.payAmountMinor) }),
  /** Alipay's asynchronous payment notification: a text answer, `success` when taken. */
  callback: upstreamCallbackRoute('ALIPAY', async (rawBody, now) => (await receiveAlipayNotify(getDb(), rawBody, now)).answer),
  // The simulated gateway (the default ALIPAY_GATEWAY_URL); its cashier pages are the payer's.
  sandboxApiPaths: [/^\/sandbox\/alipay\/gateway\.do$/],
  refunds: alipayRefunds,
  closeUpstream: closeAlipayOrderUpstream,
  jobs: [alipayPollerJob],
  reconciliation: alipayReconciliation,
  credentials: alipayCredentials,
  examples: { submit: alipaySubmitExample, query: alipayQueryExample, notification: alipayNotificationExample },
  testOrder: alipayTestOrder,
  openApi: alipayOpenApi,
};
