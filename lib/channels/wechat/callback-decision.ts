import type { CallbackVerdict } from '../upstream-callbacks';

/** How one WeChat Pay notification was judged (a payment's or a refund's), as recorded and answered. */
export type Decision = { verdict: CallbackVerdict; detail?: string; orderId?: number; outTradeNo?: string; tradeNo?: string };
