import { common, decimal2, notificationForm, refundedAmount, statusString, str, url, type Schema } from '../../contract/schema-parts';
import type { ChannelOpenApi } from '../channel';

/** USDT's parts of the OpenAPI document. */
export const usdtOpenApi: ChannelOpenApi = {
  errorCases: {
    amount_over_limit: [{ example: 'pay_usdt exceeds the platform per-order limit of 10000.00 USDT', when: 'Amount over the platform per-order limit.' }],
    no_receiving_address: [
      {
        example:
          'pay_usdt 10.50: all 3 receiving addresses on TRC20 already hold 10.50 and 10.51 for other orders (pending, or expired and in their 60-minute cool-down); ' +
          'try again when one of them is paid or its cool-down ends, or ask the operator to add receiving addresses',
        when: "USDT: every receiving address of the order's network already holds that amount and amount + 0.01 for other orders (or the network has none enabled).",
      },
    ],
    pool_share_exceeded: [
      {
        example:
          "pay_usdt 88.00: this merchant's orders already hold 1 of the 2 receiving slots for 88.00 and 88.01 on TRC20, the most one merchant may hold of one amount " +
          'while other merchants order from the same receiving addresses (half of them); try again when one of its orders is paid, or has expired and its ' +
          "60-minute cool-down has ended, or ask the operator to add receiving addresses or raise this merchant's amount-slots limit",
        when: "USDT: the merchant's own orders already hold its share of the slots of that amount and the next cent (by default half of them, while other merchants may place orders), or of the network's slots in all (500 by default, likewise); the operator sets both per merchant, and a limit it set applies to a merchant alone too.",
      },
    ],
    refund_not_offered: [
      {
        example: 'USDT refunds are not made by this service, which holds no keys: send the USDT from your own wallet, then record the refund on the order page of the portal',
        when: "The order's channel has no refund here: USDT, refund from your own wallet and record it in the portal. The message says how to refund.",
      },
    ],
  },
  closeBehaviour: 'here, the slot keeps its cool-down and a later transfer is late, never credited',
  submitRequest: 'UsdtSubmitRequest',
  createData: 'UsdtCreateData',
  queryData: 'UsdtQueryData',
  notification: 'UsdtNotification',
  schemas: {
    UsdtSubmitRequest: {
      type: 'object',
      title: 'USDT (payType USDT or omitted)',
      required: ['appId', 'merchantOrderNo', 'notifyUrl', 'signature'],
      properties: {
        appId: common.appId,
        merchantOrderNo: common.merchantOrderNo,
        payType: str("'USDT' or omitted.", { enum: ['USDT'] }),
        chainType: str(
          "The network the payer pays on: '1' = TRON TRC20 (the default), '2' = Ethereum ERC20, '3' = BNB Smart Chain BEP20 (18 decimals on chain, matched exactly to the cent), '4' = Polygon PoS. '2'–'4' are accepted only where the service enables that chain (otherwise 1003 naming chainType).",
          { enum: ['1', '2', '3', '4'] },
        ),
        pay_usdt: decimal2('USDT quantity: greater than 0, at most 2 decimals, within the platform per-order limit. Required unless `payMoney` is sent.'),
        payMoney: decimal2('Legacy alias of `pay_usdt`, read only when `pay_usdt` is absent (an invalid `pay_usdt` never falls back to it).'),
        productName: common.productName,
        notifyUrl: common.notifyUrl,
        redirectUrl: common.redirectUrl,
        attach: common.attach,
        signature: common.signature,
      },
    },
    UsdtCreateData: {
      type: 'object',
      required: ['orderNo', 'merchantOrderNo', 'payUrl', 'pay_usdt', 'pay_money', 'status'],
      properties: {
        orderNo: str('Platform order number (U…).'),
        merchantOrderNo: str('Echoed.'),
        payUrl: url('Checkout page of the order (unguessable token).'),
        pay_usdt: decimal2('Final payable USDT quantity; may be 0.01 above the requested one when another pending order on the same address holds that amount. The payer must pay exactly this.'),
        pay_money: str("Legacy fiat field, always '0.00'. Never use it to credit an account.", { const: '0.00' }),
        status: statusString,
      },
    },
    UsdtQueryData: {
      type: 'object',
      required: ['payUrl', 'orderNo', 'merchantOrderNo', 'status', 'pay_usdt', 'pay_money', 'chainType', 'recovered', 'refundedAmount'],
      properties: {
        refundedAmount,
        payUrl: url('Checkout page.'),
        orderNo: str('Platform order number.'),
        merchantOrderNo: str('Echoed.'),
        status: str("'0' pending, '1' paid, '2' expired/closed (a pending order past its window reads '2').", { enum: ['0', '1', '2'] }),
        pay_usdt: decimal2('Final payable USDT quantity.'),
        pay_money: str("Legacy, always '0.00'.", { const: '0.00' }),
        chainType: str("The order's network, as submitted: '1' TRC20, '2' ERC20, '3' BEP20, '4' Polygon.", { enum: ['1', '2', '3', '4'] }),
        recovered: { type: 'boolean', description: 'Always true (read back from storage).' },
      },
    },
    UsdtNotification: notificationForm('USDT', 'orderNo', 'pay_usdt', 'USDT quantity paid (the final `pay_usdt`).', 'Transaction id on the order\'s chain: TRON transaction id, or the EVM transaction hash (0x…); empty on a manual completion.'),
  } satisfies Record<string, Schema>,
  submitReplyExample: {
    code: 0,
    message: 'success',
    data: { orderNo: 'U20260101000000000001', merchantOrderNo: 'ORDER-20260101-0001', payUrl: 'https://pay.example/pay/3q2-…', pay_usdt: '10.50', pay_money: '0.00', status: '0' },
  },
};
