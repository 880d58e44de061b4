import { payUrlFor } from '../../orders/identifiers';
import { DirectUpstreamError, type DirectChannelAdapter } from '../direct/direct-channel';
import { alipayConfig, AlipayNotConfigured } from './config';

/**
 * ALIPAY behind the direct-channel interface. Page and wap pay need no server call at create: the payer's browser
 * is sent to Alipay from the service's checkout (payUrl), where the signed request is built with the bound credential.
 */
export const alipayAdapter: DirectChannelAdapter = {
  channel: 'ALIPAY',
  async startPayment() {
    try {
      alipayConfig();
    } catch (error) {
      if (!(error instanceof AlipayNotConfigured)) throw error;
      console.error(`alipay: channel unavailable: ${error.message}`);
      throw new DirectUpstreamError('ALIPAY channel is not available');
    }
    return undefined;
  },
  payUrlOf(order) {
    return payUrlFor(order.payToken);
  },
};
