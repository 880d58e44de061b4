import { common, decimal2, notificationForm, refundedAmount, statusString, str, url, type Schema } from '../../contract/schema-parts';
import type { ChannelOpenApi } from '../channel';

/** YHT's parts of the OpenAPI document. */
export const yhtOpenApi: ChannelOpenApi = {
  errorCases: {
    upstream_failure: [{ example: 'YHT channel is not available', when: 'Upstream channel error: the upstream refused or is unreachable; nothing is created. The message gives the reason.' }],
    refund_not_offered: [
      {
        example: "YHT refunds are not offered: the YHT protocol has no refund request; refund the payer through YHT's merchant back office",
        when: "The order's channel has no refund here: YHT, its protocol offers no refund. The message says how to refund.",
      },
    ],
  },
  closeBehaviour: 'query, its protocol has no close',
  submitRequest: 'YhtSubmitRequest',
  createData: 'YhtCreateData',
  queryData: 'YhtQueryData',
  notification: 'YhtNotification',
  schemas: {
    YhtSubmitRequest: {
      type: 'object',
      title: 'YHT (fiat aggregator)',
      required: ['appId', 'merchantOrderNo', 'payType', 'channel', 'payMethod', 'payMoney', 'notifyUrl', 'signature'],
      properties: {
        appId: common.appId,
        merchantOrderNo: common.merchantOrderNo,
        payType: str("Fixed 'YHT'.", { const: 'YHT' }),
        channel: str("Fixed 'YHT'.", { const: 'YHT' }),
        payMethod: str('Payment method (case-sensitive).', { enum: ['wxH5', 'wxPub', 'wxLite', 'aliPay', 'unionPay', 'bankCard', 'bankFast'] }),
        payMoney: decimal2('Amount in CNY (yuan), greater than 0, at most 2 decimals.'),
        productName: common.productName,
        notifyUrl: common.notifyUrl,
        redirectUrl: common.redirectUrl,
        attach: common.attach,
        clientIp: common.clientIp,
        signature: common.signature,
      },
    },
    YhtCreateData: {
      type: 'object',
      required: ['orderNo', 'merchantOrderNo', 'payUrl', 'qrCodeUrl', 'payMethod', 'status'],
      properties: {
        orderNo: str('Platform order number (Y…).'),
        merchantOrderNo: str('Echoed.'),
        payUrl: url('Checkout page of the order.'),
        qrCodeUrl: url('PNG of the QR code to pay; 410 once the order can no longer be paid.'),
        payMethod: str('Echoed.'),
        status: statusString,
      },
    },
    YhtQueryData: {
      type: 'object',
      required: ['orderNo', 'merchantOrderNo', 'payUrl', 'qrCodeUrl', 'payMethod', 'status', 'payMoney', 'refundedAmount'],
      properties: {
        refundedAmount,
        orderNo: str('Platform order number.'),
        merchantOrderNo: str('Echoed.'),
        payUrl: url('Checkout page.'),
        qrCodeUrl: url('QR code PNG.'),
        payMethod: str('The payment method.'),
        status: statusString,
        payMoney: decimal2('CNY, 2 decimals.'),
      },
    },
    YhtNotification: notificationForm('YHT', 'orderNo', 'payMoney', 'CNY, 2 decimals.', "YHT's order number."),
  } satisfies Record<string, Schema>,
};
