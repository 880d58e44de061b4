import { common, decimal2, notificationForm, str, type Schema } from '../../contract/schema-parts';
import type { ChannelOpenApi } from '../channel';

/** ALIPAY's parts of the OpenAPI document; its reply data are the shared DirectCreateData and DirectQueryData. */
export const alipayOpenApi: ChannelOpenApi = {
  errorCases: {
    invalid_pay_method: [{ when: 'ALIPAY `payMethod` is neither `wap` nor `web`.' }],
    credential_unusable: [
      {
        example: 'ALIPAY credential not found, not approved, or not enabled',
        exact: true,
        when: "ALIPAY: `credentialId` is not the authenticated merchant's, or the credential is not approved, not enabled or deleted; without `credentialId`, the merchant has no usable credential.",
      },
    ],
  },
  closeBehaviour: 'alipay.trade.close, ACQ.TRADE_NOT_EXIST closes here only',
  refundBehaviour: { refundNoUpstream: "Alipay's out_request_no" },
  submitRequest: 'AlipaySubmitRequest',
  createData: 'DirectCreateData',
  queryData: 'DirectQueryData',
  notification: 'AlipayNotification',
  schemas: {
    AlipaySubmitRequest: {
      type: 'object',
      title: 'ALIPAY (Alipay PC / mobile website payment on the merchant\'s own credential)',
      required: ['appId', 'merchantOrderNo', 'payType', 'payMethod', 'amount', 'notifyUrl', 'signature'],
      properties: {
        appId: str('The service AppID, not the upstream application id (that gives 1005).'),
        merchantOrderNo: str("Idempotency key of the merchant's ALIPAY orders; a retry must keep `amount`, `payMethod` and an explicit `credentialId`."),
        payType: str("Fixed 'ALIPAY'.", { const: 'ALIPAY' }),
        credentialId: {
          type: ['integer', 'string'],
          minimum: 1,
          maximum: 2147483647,
          pattern: '^[0-9]+$',
          description:
            "Id of an approved, enabled credential of the merchant (a JSON number or a digit string); absent: the usable one with the greatest id. Not a positive integer: 1001 `credentialId invalid`; another merchant's, not approved, disabled or deleted: 1009. Signed only when sent.",
        },
        payMethod: str("'web' = PC website (alipay.trade.page.pay), 'wap' = mobile website (alipay.trade.wap.pay); anything else: 1001 `payMethod must be wap or web`.", { enum: ['web', 'wap'] }),
        amount: decimal2('CNY, greater than 0, at most 2 decimals; `payMoney` is an accepted alias used only when `amount` is absent (an invalid `amount` is refused, never replaced).'),
        payMoney: decimal2('Alias of `amount`, read only when `amount` is absent.'),
        productName: str("Default 'Payment'."),
        productDesc: str('Product description.'),
        notifyUrl: common.notifyUrl,
        redirectUrl: str('Merchant page after payment; `returnUrl` is an accepted alias (used when `redirectUrl` is absent).'),
        returnUrl: str('Alias of `redirectUrl`.'),
        attach: common.attach,
        clientIp: common.clientIp,
        signature: common.signature,
      },
    },
    AlipayNotification: {
      ...notificationForm('ALIPAY', 'platformOrderNo', 'amount', 'CNY.', "Alipay's trade_no."),
      description: "Sent once Alipay's RSA2-signed notification (or alipay.trade.query) is verified: signature, app id, order and amount.",
    },
  } satisfies Record<string, Schema>,
};
