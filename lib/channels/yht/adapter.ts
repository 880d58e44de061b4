import { upstreamFailure } from '../../errors/domain-error';
import { payUrlFor, orderTtlMinutes } from '../../orders/identifiers';
import { type DirectChannelAdapter } from '../../orders/direct-channel-adapter';
import { createYhtPayment, YhtUpstreamError } from './client';
import { yhtConfig, YhtNotConfigured, type YhtConfig } from './config';
import type { YhtPayMethod } from './protocol';
import { log } from '../../observability/logger';

/** The channel's settings, or (logged for operators) upstream_failure saying only that YHT is not available. */
export function yhtConfigOrRefuse(): YhtConfig {
  try {
    return yhtConfig();
  } catch (error) {
    if (!(error instanceof YhtNotConfigured)) throw error;
    log().error({ component: 'yht' }, `yht: channel unavailable: ${error.message}`);
    throw upstreamFailure('YHT channel is not available');
  }
}

/**
 * YHT behind the upstream-channel interface: the aggregator's order is created first, under the platform order
 * number, on the service's own YHT account; only when it accepted are the order and its cashier data written. A
 * refused or unreachable upstream is 1011 and leaves no row: no order is shown as pending without a way to pay it.
 */
export const yhtAdapter: DirectChannelAdapter = {
  channel: 'YHT',
  orderNoPrefix: 'Y',
  credentials: 'platform',
  amountField: 'payMoney',
  payWindowMinutes: orderTtlMinutes,
  firstUpstreamCheck: () => null,
  async startPayment(_credential, request) {
    const config = yhtConfigOrRefuse();
    try {
      const created = await createYhtPayment(config, {
        outTradeNo: request.orderNo,
        amountMinor: request.amountMinor,
        payMethod: request.payMethod as YhtPayMethod,
        subject: request.subject,
        // The payer comes back to our checkout, which shows the state we hold (never the browser's word).
        returnUrl: request.checkoutUrl,
        expiresAt: request.expiresAt,
      });
      return { upstreamOrderNo: created.tradeNo, cashierUrl: created.cashierUrl, qrContent: created.qrContent };
    } catch (error) {
      if (!(error instanceof YhtUpstreamError)) throw error;
      throw upstreamFailure(error.message);
    }
  },
  payUrlOf(order) {
    return payUrlFor(order.payToken);
  },
};
