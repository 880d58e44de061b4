import { CHANNELS } from '../channels';

/**
 * Every request field name of the contract: the properties of each channel's submit request, which include the
 * query request's four (appId, merchantOrderNo, payType, signature). Read from the published schemas, so a field a
 * channel adds is covered without a list kept here.
 */
export const CONTRACT_FIELD_NAMES: ReadonlySet<string> = new Set([
  ...CHANNELS.flatMap((channel) => Object.keys((channel.openApi.schemas[channel.openApi.submitRequest]?.properties ?? {}) as Record<string, unknown>)),
  // The refund requests' own fields (lib/refunds/refund-request.ts).
  'merchantRefundNo',
  'refundAmount',
  'reason',
]);
