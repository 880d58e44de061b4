/** Building blocks of the OpenAPI document's schemas, shared by lib/api/openapi/document.ts and each channel's part (lib/channels/<name>/open-api.ts); data only, no transport. */

export type Schema = Record<string, unknown>;

export const str = (description: string, extra: Schema = {}): Schema => ({ type: 'string', description, ...extra });
export const decimal2 = (description: string): Schema => str(description, { pattern: '^[0-9]+(\\.[0-9]{1,2})?$' });
export const url = (description: string): Schema => str(description, { format: 'uri', maxLength: 2048 });

export const common = {
  appId: str('Merchant AppID (merchant back office → interface keys).', { maxLength: 64 }),
  merchantOrderNo: str("The merchant's order number, unique within the merchant across all channels (1–64 visible ASCII characters).", { minLength: 1, maxLength: 64 }),
  productName: str('Product name.', { maxLength: 128 }),
  notifyUrl: url('Absolute http(s) URL that receives the payment-success notification (see the `orderPaid` webhook).'),
  redirectUrl: url('Page the payer returns to. A browser redirect only, never proof of payment.'),
  attach: str("Merchant's own data, returned unchanged in the notification.", { maxLength: 1024 }),
  clientIp: str(
    "The payer's own IP address (IPv4 or IPv6, as the payer's browser reached the merchant), signed like every other field when sent; malformed: 1003 naming `clientIp`. Without it the service can only pass an upstream the address the submit request came from (the merchant's server).",
    { maxLength: 45 },
  ),
  signature: str('Uppercase MD5 hex, see "Signature" in the API description.', { pattern: '^[0-9A-Fa-f]{32}$' }),
};

/** Every order query answer's refunded total; the order's status values stay as the contract fixes them. */
export const refundedAmount = decimal2("Sum of the order's refunds that succeeded (\"0.00\" when none), in the order's currency; see /v1/api/open/refund/submit.");

export const statusString = str("Order state: '0' pending, '1' paid, '2' expired/closed.", { enum: ['0', '1', '2'] });

/** A channel's payment-success notification form: its own order-number and amount fields, the rest shared. */
export function notificationForm(channel: string, idField: string, amountField: string, amountText: string, tradeNo: string): Schema {
  return {
    type: 'object',
    title: `${channel} notification`,
    required: ['appId', idField, 'merchantOrderNo', 'payType', amountField, 'status', 'payTime', 'signature'],
    properties: {
      appId: str('Merchant AppID.'),
      [idField]: str('Platform order number.'),
      merchantOrderNo: str('Merchant order number; process idempotently by it.'),
      payType: str(`'${channel}'.`, { const: channel }),
      [amountField]: decimal2(amountText),
      status: str("'PAID'.", { const: 'PAID' }),
      payTime: str('Unix timestamp, seconds.', { pattern: '^[0-9]+$' }),
      tradeNo: str(tradeNo),
      attach: str("The order's `attach`, unchanged (empty when none)."),
      signature: str('Signed with the AppSecret by the same algorithm; recompute it over every non-empty field but `signature`.'),
    },
  };
}
