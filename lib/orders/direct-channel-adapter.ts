import type { UsableCredential } from '../credentials/find-usable-credential';
import type { OrderRow, UpstreamOrderRow } from '../db/schema';

/**
 * The upstream channels: orders paid at an upstream cashier (a payment company or aggregator) that the service asks
 * to start the payment. Each channel folder supplies one adapter; lib/orders/create-direct-order.ts is their one
 * create path. The adapter is typed here, beside the create path that calls it: the channels implement it and pass it in.
 */

/** What an adapter needs to start the upstream side of a new order. Nothing is stored yet when it is called. */
export interface DirectPaymentRequest {
  /** The platformOrderNo; the upstream's `out_trade_no`. */
  orderNo: string;
  /** CNY fen. */
  amountMinor: bigint;
  /** The channel's payMethod, as the submit named it. */
  payMethod: string;
  /** The order's productName, or 'Payment'. */
  subject: string;
  description?: string;
  /** End of the payment window. */
  expiresAt: Date;
  /** The order's checkout page at the service (payUrlFor(payToken)): where the payer returns after paying upstream. */
  checkoutUrl: string;
  /** The address the create request came from (or the payer's address as the merchant sent it). */
  clientIp: string;
}

/** The upstream's answer to a started payment, stored as the order's upstream_orders row in the order's transaction. */
export interface StartedDirectPayment {
  /** The upstream's reference for the order before payment. */
  upstreamOrderNo: string;
  /** Where the payer pays upstream. */
  cashierUrl: string;
  /** QR content to show on the service's own page. */
  qrContent?: string;
  /** The payer IP the upstream order was made for, kept so that a renewal sends the same parameters. */
  payerClientIp?: string;
}

/** One upstream channel behind the open API's submit (lib/orders/create-direct-order.ts). */
export interface DirectChannelAdapter {
  /** The payType (orders.channel). */
  readonly channel: string;
  /** The first letter of the channel's platform order numbers. */
  readonly orderNoPrefix: string;
  /**
   * 'merchant': the order is paid to the merchant's own upstream account, on its approved credential (1009 without
   * one); 'platform': on the service's own upstream account (the channel's configuration).
   */
  readonly credentials: 'merchant' | 'platform';
  /** How the submit names the amount; a repeat create with another amount is refused naming it. */
  readonly amountField: string;
  /** The pay window of a new order, in minutes. */
  payWindowMinutes(): number;
  /** When the channel's poller first asks about a new order (stored as upstream_check_after); null when it picks by expiry. */
  firstUpstreamCheck(now: Date): Date | null;
  /**
   * Starts the upstream payment before the order is stored; undefined when the upstream is contacted only when the
   * payer opens payUrl. `credential` is the merchant's when `credentials` is 'merchant', else undefined. Throws
   * an upstream_failure DomainError when the upstream refuses or is unreachable.
   */
  startPayment(credential: UsableCredential | undefined, request: DirectPaymentRequest): Promise<StartedDirectPayment | undefined>;
  /** The payUrl answered to the merchant: the service's checkout page, or an upstream address. */
  payUrlOf(order: { payMethod: string | null; payToken: string }, upstream: UpstreamOrderRow | undefined): string;
  /**
   * On a repeat submit of a pending order: a fresh cashier when the stored one has lapsed or is about to, asked of
   * the upstream with the order's original parameters; undefined keeps the stored one. Throws an upstream_failure DomainError
   * when the upstream refuses or is unreachable.
   */
  renewCashier?(credential: UsableCredential, order: OrderRow, upstream: UpstreamOrderRow, now: Date): Promise<{ cashierUrl: string } | undefined>;
}
