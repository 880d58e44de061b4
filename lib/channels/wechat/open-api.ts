import { common, decimal2, notificationForm, str, type Schema } from '../../contract/schema-parts';
import type { ChannelOpenApi } from '../channel';

/** WECHAT's parts of the OpenAPI document; its reply data are the shared DirectCreateData and DirectQueryData. */
export const wechatOpenApi: ChannelOpenApi = {
  errorCases: {
    credential_unusable: [{ example: 'WECHAT credential not found, not approved, or not enabled', exact: true, when: 'The same conditions for WECHAT credentials.' }],
    refund_limit_reached: [
      {
        example: 'WeChat Pay refunds an order at most 50 times',
        when: "The upstream's own limits, refused before anything is sent: WECHAT refunds an order at most 50 times, and not after a year from its payment.",
      },
    ],
  },
  closeBehaviour: 'close then query',
  refundBehaviour: { refundNoUpstream: "WeChat Pay's out_refund_no", abnormalState: 'ABNORMAL' },
  submitRequest: 'WechatSubmitRequest',
  createData: 'DirectCreateData',
  queryData: 'DirectQueryData',
  notification: 'WechatNotification',
  schemas: {
    WechatSubmitRequest: {
      type: 'object',
      title: 'WECHAT (WeChat Pay Native QR / H5 on the merchant\'s own credential)',
      required: ['appId', 'merchantOrderNo', 'payType', 'payMethod', 'amount', 'notifyUrl', 'signature'],
      properties: {
        appId: str('The service AppID, not the upstream application id.'),
        merchantOrderNo: str("Idempotency key of the merchant's WECHAT orders."),
        payType: str("Fixed 'WECHAT'.", { const: 'WECHAT' }),
        credentialId: { type: 'integer', minimum: 1, description: 'Id of an approved, enabled WECHAT credential of the merchant; absent: the usable one with the greatest id. Not a positive integer gives 1001.' },
        payMethod: str("'native' = PC QR code, 'h5' = mobile browser. JSAPI, mini-program and in-app payments are not supported.", { enum: ['native', 'h5'] }),
        amount: decimal2('CNY, at most 2 decimals; `payMoney` is an accepted alias.'),
        productName: common.productName,
        notifyUrl: common.notifyUrl,
        redirectUrl: common.redirectUrl,
        clientIp: {
          ...common.clientIp,
          description: `${(common.clientIp as { description: string }).description} WECHAT \`h5\` merchants must send it: WeChat Pay refuses an H5 payment opened from another address than \`scene_info.payer_client_ip\`.`,
        },
        signature: common.signature,
      },
    },
    WechatNotification: {
      ...notificationForm('WECHAT', 'platformOrderNo', 'amount', 'CNY.', 'Upstream payment order number.'),
      description: 'Sent once WeChat Pay\'s signed, encrypted notification (or the order query) is verified: signature, appid, mchid, order and amount.',
    },
  } satisfies Record<string, Schema>,
};
