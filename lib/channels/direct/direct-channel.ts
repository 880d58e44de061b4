import type { UsableCredential } from '../../credentials/find-usable-credential';
import type { OrderRow, UpstreamOrderRow } from '../../db/schema';

/** The direct channels: orders paid to the merchant's own upstream account, on the merchant's approved credential. */
export type DirectChannelName = 'ALIPAY' | 'WECHAT';

/** What an adapter needs to start the upstream side of a new order. Nothing is stored yet when it is called. */
export interface DirectPaymentRequest {
  /** The platformOrderNo; the upstream's `out_trade_no`. */
  orderNo: string;
  /** CNY fen. */
  amountMinor: bigint;
  /** ALIPAY: 'web' | 'wap'. WECHAT: 'native' | 'h5'. */
  payMethod: string;
  /** The order's productName, or 'Payment'. */
  subject: string;
  description?: string;
  /** End of the payment window. */
  expiresAt: Date;
  /** The order's checkout page at the service (payUrlFor(payToken)): where the payer returns after paying upstream. */
  checkoutUrl: string;
  /** The address the create request came from (WECHAT h5 `scene_info.payer_client_ip`). */
  clientIp: string;
}

/** The upstream's answer to a started payment, stored as the order's upstream_orders row in the order's transaction. */
export interface StartedDirectPayment {
  /** The upstream's reference for the order before payment (WECHAT: the out_trade_no it accepted). */
  upstreamOrderNo: string;
  /** Where the payer pays upstream (WECHAT h5: `h5_url`; native: the `code_url`). */
  cashierUrl: string;
  /** QR content to show on the service's own page (WECHAT native: `code_url`). */
  qrContent?: string;
  /** The payer IP the upstream order was made for (WECHAT h5), kept so that a renewal sends the same parameters. */
  payerClientIp?: string;
}

/** The upstream refused the payment or could not be reached; the open API answers 1011 with `reason`, nothing is written. */
export class DirectUpstreamError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'DirectUpstreamError';
  }
}

/** One direct channel behind the open API's submit (lib/orders/create-direct-order.ts). */
export interface DirectChannelAdapter {
  readonly channel: DirectChannelName;
  /**
   * Starts the upstream payment before the order is stored; undefined when the upstream is contacted only when the
   * payer opens payUrl (ALIPAY page/wap pay). Throws DirectUpstreamError when the upstream refuses or is unreachable.
   */
  startPayment(credential: UsableCredential, request: DirectPaymentRequest): Promise<StartedDirectPayment | undefined>;
  /** The payUrl answered to the merchant: the service's checkout page, or an upstream address (WECHAT h5 `h5_url`). */
  payUrlOf(order: { payMethod: string | null; payToken: string }, upstream: UpstreamOrderRow | undefined): string;
  /**
   * On a repeat submit of a pending order: a fresh cashier when the stored one has lapsed or is about to (WECHAT
   * h5_url lives 5 minutes), asked of the upstream with the order's original parameters; undefined keeps the stored
   * one. Throws DirectUpstreamError when the upstream refuses or is unreachable.
   */
  renewCashier?(credential: UsableCredential, order: OrderRow, upstream: UpstreamOrderRow, now: Date): Promise<{ cashierUrl: string } | undefined>;
}
