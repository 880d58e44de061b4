import { DomainError } from '../errors/domain-error';

/** The merchant an order is submitted for, as far as the order domain checks it. */
interface SubmittingMerchant {
  readonly orderPermission: boolean;
}

/**
 * Submits an order through the channel the caller picked (the open API picks it by payType): refused when an
 * operator turned the merchant's order permission off, else the channel parses, validates and creates (or recovers)
 * the order and answers its data.
 */
export async function submitOrder<Request extends { merchant: SubmittingMerchant }>(
  channel: { submit(request: Request): Promise<unknown> },
  request: Request,
): Promise<unknown> {
  if (!request.merchant.orderPermission) throw new DomainError('order_permission_disabled');
  return channel.submit(request);
}
