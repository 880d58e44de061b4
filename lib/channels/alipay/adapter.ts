import { upstreamFailure } from '../../errors/domain-error';
import { payUrlFor } from '../../orders/identifiers';
import { type DirectChannelAdapter } from '../../orders/direct-channel-adapter';
import { ALIPAY_FIRST_CHECK_AFTER_MS, ALIPAY_PAY_WINDOW_MINUTES, alipayConfig, AlipayNotConfigured, type AlipayConfig } from './config';
import { log } from '../../observability/logger';

/** The channel's settings, or (logged for operators) upstream_failure saying only that ALIPAY is not available. */
export function alipayConfigOrRefuse(): AlipayConfig {
  try {
    return alipayConfig();
  } catch (error) {
    if (!(error instanceof AlipayNotConfigured)) throw error;
    log().error({ component: 'alipay' }, `alipay: channel unavailable: ${error.message}`);
    throw upstreamFailure('ALIPAY channel is not available');
  }
}

/**
 * ALIPAY behind the direct-channel interface. Page and wap pay need no server call at create: the payer's browser
 * is sent to Alipay from the service's checkout (payUrl), where the signed request is built with the bound credential.
 */
export const alipayAdapter: DirectChannelAdapter = {
  channel: 'ALIPAY',
  orderNoPrefix: 'A',
  credentials: 'merchant',
  amountField: 'amount',
  /** Alipay's link is valid for the contract's 30 minutes. */
  payWindowMinutes: () => ALIPAY_PAY_WINDOW_MINUTES,
  /** The ALIPAY poller picks due orders by this stored time (an index probe). */
  firstUpstreamCheck: (now) => new Date(now.getTime() + ALIPAY_FIRST_CHECK_AFTER_MS),
  async startPayment() {
    alipayConfigOrRefuse();
    return undefined;
  },
  payUrlOf(order) {
    return payUrlFor(order.payToken);
  },
};
