import { DOCUMENTED_ERRORS } from './error-catalogue';
import {
  alipayNotificationExample,
  alipayQueryExample,
  alipaySubmitExample,
  PLACEHOLDER_APP_ID,
  PLACEHOLDER_APP_SECRET,
  queryExample,
  signedExample,
  usdtNotificationExample,
  usdtSubmitExample,
  wechatSubmitExample,
  yhtNotificationExample,
  yhtSubmitExample,
} from './examples';

/**
 * The open API as an OpenAPI 3.1 document (served at GET /v1/api/open/openapi.json). It follows the merchant
 * interface (docs/merchant-api.md) and docs/open-api.md; tests send its examples to the service.
 */

type Schema = Record<string, unknown>;

export const OPENAPI_DOCUMENT_PATH = '/v1/api/open/openapi.json';
export const SUBMIT_PATH = '/v1/api/open/order/submit';
export const QUERY_PATH = '/v1/api/open/order/query';

const SIGNATURE_SCHEME = [
  'Every request carries `appId` (the merchant AppID) and `signature`. The AppSecret signs and is never sent.',
  '',
  '1. Take all submitted fields; remove `signature` and every field whose value is empty (`""`, `null` or absent).',
  '2. Sort the remaining fields by name in ASCII ascending order (names are case-sensitive: upper case sorts before lower case).',
  '3. Join them as `name=value` pairs separated by `&`, using each raw value (UTF-8, not URL-encoded; a JSON number or boolean as its JSON text, e.g. `12.50`, `true`).',
  '4. Append `&appsecret=` followed by the AppSecret.',
  '5. MD5 of the UTF-8 bytes, written as uppercase hexadecimal: that is `signature`.',
  '',
  'Every non-empty submitted field is signed, under its original name (aliases such as `payMoney` too). A field that is not sent is not added. The same algorithm signs the notifications sent to `notifyUrl`.',
  '',
  `Example with the placeholder secret \`${PLACEHOLDER_APP_SECRET}\`: \`appId=${PLACEHOLDER_APP_ID}&merchantOrderNo=ORDER-20260101-0001&appsecret=${PLACEHOLDER_APP_SECRET}\` → MD5 → uppercase hex.`,
].join('\n');

const str = (description: string, extra: Schema = {}): Schema => ({ type: 'string', description, ...extra });
const decimal2 = (description: string): Schema => str(description, { pattern: '^[0-9]+(\\.[0-9]{1,2})?$' });
const url = (description: string): Schema => str(description, { format: 'uri', maxLength: 2048 });

const common = {
  appId: str('Merchant AppID (merchant back office → interface keys).', { maxLength: 64 }),
  merchantOrderNo: str("The merchant's order number, unique within the merchant across all channels (1–64 visible ASCII characters).", { minLength: 1, maxLength: 64 }),
  productName: str('Product name.', { maxLength: 128 }),
  notifyUrl: url('Absolute http(s) URL that receives the payment-success notification (see the `orderPaid` webhook).'),
  redirectUrl: url('Page the payer returns to. A browser redirect only, never proof of payment.'),
  attach: str("Merchant's own data, returned unchanged in the notification.", { maxLength: 1024 }),
  clientIp: str(
    "The payer's own IP address (IPv4 or IPv6, as the payer's browser reached the merchant), signed like every other field when sent; malformed: 1003 naming `clientIp`. WECHAT `h5` merchants must send it: WeChat Pay refuses an H5 payment opened from another address than `scene_info.payer_client_ip`, and without `clientIp` the service can only pass the address the submit request came from (the merchant's server).",
    { maxLength: 45 },
  ),
  signature: str('Uppercase MD5 hex, see "Signature" in the API description.', { pattern: '^[0-9A-Fa-f]{32}$' }),
};

const statusString = str("Order state: '0' pending, '1' paid, '2' expired/closed.", { enum: ['0', '1', '2'] });

function schemas(): Record<string, Schema> {
  return {
    Envelope: {
      type: 'object',
      description: 'Every answer. `code` 0 is success; `data` is null on errors.',
      required: ['code', 'message', 'data'],
      properties: {
        code: { type: 'integer', enum: [...new Set(DOCUMENTED_ERRORS.map((error) => error.code))] },
        message: { type: 'string' },
        data: { type: ['object', 'null'] },
      },
    },
    ErrorEnvelope: {
      type: 'object',
      description: errorTable(),
      required: ['code', 'message', 'data'],
      properties: {
        code: { type: 'integer', enum: [...new Set(DOCUMENTED_ERRORS.filter((error) => error.code !== 0).map((error) => error.code))] },
        message: { type: 'string' },
        data: { type: 'null' },
      },
      'x-error-codes': DOCUMENTED_ERRORS.map(({ code, message, exact, when, httpStatus }) => ({ code, message, exact, httpStatus, when })),
    },
    UsdtSubmitRequest: {
      type: 'object',
      title: 'USDT (payType USDT or omitted)',
      required: ['appId', 'merchantOrderNo', 'notifyUrl', 'signature'],
      properties: {
        appId: common.appId,
        merchantOrderNo: common.merchantOrderNo,
        payType: str("'USDT' or omitted.", { enum: ['USDT'] }),
        chainType: str("'1' = TRC20 (the default and the only chain for now).", { enum: ['1'] }),
        pay_usdt: decimal2('USDT quantity: greater than 0, at most 2 decimals, within the platform per-order limit. Required unless `payMoney` is sent.'),
        payMoney: decimal2('Legacy alias of `pay_usdt`, read only when `pay_usdt` is absent (an invalid `pay_usdt` never falls back to it).'),
        productName: common.productName,
        notifyUrl: common.notifyUrl,
        redirectUrl: common.redirectUrl,
        attach: common.attach,
        signature: common.signature,
      },
    },
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
    WechatSubmitRequest: {
      type: 'object',
      title: 'WECHAT (WeChat Pay Native QR / H5 on the merchant\'s own credential)',
      required: ['appId', 'merchantOrderNo', 'payType', 'payMethod', 'amount', 'notifyUrl', 'signature'],
      properties: {
        appId: str('The service AppID, not the upstream application id.'),
        merchantOrderNo: str("Idempotency key of the merchant's WECHAT orders."),
        payType: str("Fixed 'WECHAT'.", { const: 'WECHAT' }),
        credentialId: { type: 'integer', minimum: 1, description: 'As for ALIPAY, for WECHAT credentials; not a positive integer gives 1001.' },
        payMethod: str("'native' = PC QR code, 'h5' = mobile browser. JSAPI, mini-program and in-app payments are not supported.", { enum: ['native', 'h5'] }),
        amount: decimal2('CNY, at most 2 decimals; `payMoney` is an accepted alias.'),
        productName: common.productName,
        notifyUrl: common.notifyUrl,
        redirectUrl: common.redirectUrl,
        clientIp: common.clientIp,
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
    DirectCreateData: {
      type: 'object',
      description: `ALIPAY and WECHAT (message 'ok').`,
      required: ['platformOrderNo', 'merchantOrderNo', 'amount', 'credentialId', 'payUrl', 'recovered'],
      properties: {
        platformOrderNo: str('Platform order number.'),
        merchantOrderNo: str('Echoed.'),
        amount: decimal2('CNY.'),
        credentialId: { type: 'integer', description: 'The credential the order is bound to.' },
        payUrl: url('ALIPAY: open in the payer\'s browser, valid 30 minutes. WECHAT native: a QR page; h5: the upstream payment address.'),
        recovered: { type: 'boolean', description: 'true when this is an idempotent retry.' },
      },
    },
    QueryRequest: {
      type: 'object',
      required: ['appId', 'merchantOrderNo', 'signature'],
      properties: {
        appId: common.appId,
        merchantOrderNo: str('Looked up within the authenticated merchant only.'),
        payType: str("Absent (or 'USDT'): a USDT order. 'YHT', 'ALIPAY', 'WECHAT': an order of that channel (another channel's order, or none: 1006). Signed when sent.", {
          enum: ['USDT', 'YHT', 'ALIPAY', 'WECHAT'],
        }),
        signature: common.signature,
      },
    },
    UsdtQueryData: {
      type: 'object',
      required: ['payUrl', 'orderNo', 'merchantOrderNo', 'status', 'pay_usdt', 'pay_money', 'recovered'],
      properties: {
        payUrl: url('Checkout page.'),
        orderNo: str('Platform order number.'),
        merchantOrderNo: str('Echoed.'),
        status: str("'0' pending, '1' paid, '2' expired/closed (a pending order past its window reads '2').", { enum: ['0', '1', '2'] }),
        pay_usdt: decimal2('Final payable USDT quantity.'),
        pay_money: str("Legacy, always '0.00'.", { const: '0.00' }),
        recovered: { type: 'boolean', description: 'Always true (read back from storage).' },
      },
    },
    YhtQueryData: {
      type: 'object',
      required: ['orderNo', 'merchantOrderNo', 'payUrl', 'qrCodeUrl', 'payMethod', 'status', 'payMoney'],
      properties: {
        orderNo: str('Platform order number.'),
        merchantOrderNo: str('Echoed.'),
        payUrl: url('Checkout page.'),
        qrCodeUrl: url('QR code PNG.'),
        payMethod: str('The payment method.'),
        status: statusString,
        payMoney: decimal2('CNY, 2 decimals.'),
      },
    },
    DirectQueryData: {
      type: 'object',
      description: `ALIPAY and WECHAT (message 'ok'); \`tradeNo\` and \`payTime\` are null until the order is paid.`,
      required: ['platformOrderNo', 'merchantOrderNo', 'amount', 'status', 'tradeNo', 'payTime'],
      properties: {
        platformOrderNo: str('Platform order number.'),
        merchantOrderNo: str('Echoed.'),
        amount: decimal2('CNY.'),
        status: { type: 'integer', enum: [1, 2, 3], description: '1 pending, 2 paid, 3 closed.' },
        tradeNo: { type: ['string', 'null'], description: 'Upstream trade number (null until paid).' },
        payTime: { type: ['integer', 'null'], description: 'Unix seconds (null until paid).' },
      },
    },
    ...notificationSchemas(),
  };
}

function notificationForm(channel: string, idField: string, amountField: string, amountText: string, tradeNo: string): Schema {
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

function notificationSchemas(): Record<string, Schema> {
  return {
    UsdtNotification: notificationForm('USDT', 'orderNo', 'pay_usdt', 'USDT quantity paid (the final `pay_usdt`).', 'TRON transaction id (empty on a manual completion).'),
    YhtNotification: notificationForm('YHT', 'orderNo', 'payMoney', 'CNY, 2 decimals.', "YHT's order number."),
    AlipayNotification: {
      ...notificationForm('ALIPAY', 'platformOrderNo', 'amount', 'CNY.', "Alipay's trade_no."),
      description: "Sent once Alipay's RSA2-signed notification (or alipay.trade.query) is verified: signature, app id, order and amount.",
    },
    WechatNotification: {
      ...notificationForm('WECHAT', 'platformOrderNo', 'amount', 'CNY.', 'Upstream payment order number.'),
      description: 'Sent once WeChat Pay\'s signed, encrypted notification (or the order query) is verified: signature, appid, mchid, order and amount.',
    },
  };
}

function errorTable(): string {
  const rows = DOCUMENTED_ERRORS.map(
    (error) => `| ${error.code} | ${error.exact ? `\`${error.message}\`` : `e.g. \`${error.message}\``} | ${error.httpStatus} | ${error.when.replace(/\|/g, '\\|')} |`,
  );
  return ['Error envelope (`data` is null). Codes and messages:', '', '| code | message | HTTP | when |', '|---|---|---|---|', ...rows].join('\n');
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const envelopeOf = (data: Schema, message: string): Schema => ({
  type: 'object',
  required: ['code', 'message', 'data'],
  properties: { code: { const: 0 }, message: { type: 'string', description: message }, data },
});

function errorResponses(): Record<string, Schema> {
  return {
    '405': { description: 'Method other than POST: code 1003 `method must be POST`, header `Allow: POST`.', content: { 'application/json': { schema: ref('ErrorEnvelope') } } },
    '500': { description: 'Unexpected failure: code 1000 `internal error`.', content: { 'application/json': { schema: ref('ErrorEnvelope') } } },
  };
}

export interface OpenApiDocumentOptions {
  /** The service's public base URL (PUBLIC_BASE_URL). */
  serverUrl?: string;
}

export function buildOpenApiDocument(options: OpenApiDocumentOptions = {}): Record<string, unknown> {
  const appId = PLACEHOLDER_APP_ID;
  return {
    openapi: '3.1.0',
    info: {
      title: 'Payment order service: open API',
      version: '1',
      description: [
        'Create payment orders and read their state. Every request is a JSON object POSTed with `Content-Type: application/json`',
        '(at most 64 KiB; values are strings, numbers, booleans or null) and every handled answer is HTTP 200 with the envelope',
        '`{code, message, data}`; `code` 0 is success.',
        '',
        '## Signature',
        '',
        SIGNATURE_SCHEME,
        '',
        '## Errors',
        '',
        errorTable(),
        '',
        '## Channels',
        '',
        'USDT (TRC20), YHT, ALIPAY and WECHAT are available.',
      ].join('\n'),
    },
    servers: [{ url: options.serverUrl ?? '/' }],
    tags: [{ name: 'orders' }, { name: 'documentation' }],
    paths: {
      [SUBMIT_PATH]: {
        post: {
          operationId: 'submitOrder',
          tags: ['orders'],
          summary: 'Create a payment order',
          description: `Channel by \`payType\`: USDT (or omitted), YHT, ALIPAY, WECHAT. A repeat with the same \`merchantOrderNo\` and the same immutable fields returns the original order; otherwise 1007.`,
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { oneOf: [ref('UsdtSubmitRequest'), ref('YhtSubmitRequest'), ref('AlipaySubmitRequest'), ref('WechatSubmitRequest')] },
                examples: {
                  usdt: { summary: 'USDT (TRC20)', value: signedExample(usdtSubmitExample(appId)) },
                  yht: { summary: 'YHT', value: signedExample(yhtSubmitExample(appId)) },
                  alipay: { summary: 'ALIPAY', value: signedExample(alipaySubmitExample(appId)) },
                  wechat: { summary: 'WECHAT', value: signedExample(wechatSubmitExample(appId)) },
                },
              },
            },
          },
          responses: {
            '200': {
              description: "The envelope. `message` is 'success' for USDT and YHT ('ok' for ALIPAY and WECHAT); on errors see ErrorEnvelope.",
              content: {
                'application/json': {
                  schema: { oneOf: [envelopeOf(ref('UsdtCreateData'), "'success'"), envelopeOf(ref('YhtCreateData'), "'success'"), envelopeOf(ref('DirectCreateData'), "'ok'"), ref('ErrorEnvelope')] },
                  examples: {
                    usdt: {
                      value: {
                        code: 0,
                        message: 'success',
                        data: { orderNo: 'U20260101000000000001', merchantOrderNo: 'ORDER-20260101-0001', payUrl: 'https://pay.example/pay/3q2-…', pay_usdt: '10.50', pay_money: '0.00', status: '0' },
                      },
                    },
                    signatureError: { value: { code: 1002, message: 'signature error', data: null } },
                  },
                },
              },
            },
            ...errorResponses(),
          },
        },
      },
      [OPENAPI_DOCUMENT_PATH]: {
        get: {
          operationId: 'getOpenApiDocument',
          tags: ['documentation'],
          summary: 'This document',
          description: 'The OpenAPI 3.1 description of the open API. Not signed; no appId needed.',
          responses: { '200': { description: 'The document.', content: { 'application/json': { schema: { type: 'object' } } } } },
        },
      },
      [QUERY_PATH]: {
        post: {
          operationId: 'queryOrder',
          tags: ['orders'],
          summary: 'Read one order',
          description: "By the merchant's `merchantOrderNo` within the authenticated merchant. Another merchant's number, another channel's order or none: 1006.",
          requestBody: {
            required: true,
            content: { 'application/json': { schema: ref('QueryRequest'), examples: {
                  usdt: { summary: 'USDT order', value: signedExample(queryExample(appId)) },
                  alipay: { summary: 'ALIPAY order', value: signedExample(alipayQueryExample(appId)) },
                },
              },
            },
          },
          responses: {
            '200': {
              description: 'The envelope; on errors see ErrorEnvelope.',
              content: {
                'application/json': {
                  schema: { oneOf: [envelopeOf(ref('UsdtQueryData'), "'success'"), envelopeOf(ref('YhtQueryData'), "'success'"), envelopeOf(ref('DirectQueryData'), "'ok'"), ref('ErrorEnvelope')] },
                },
              },
            },
            ...errorResponses(),
          },
        },
      },
    },
    webhooks: {
      orderPaid: {
        post: {
          operationId: 'orderPaidNotification',
          summary: 'Payment-success notification, POSTed by the service to the order\'s `notifyUrl`',
          description: [
            'Sent when an order becomes paid: `application/x-www-form-urlencoded`, signed with the AppSecret by the algorithm above.',
            'Verify the signature over every non-empty field but `signature`, then credit idempotently by `merchantOrderNo`.',
            "Acknowledge with HTTP 2xx and a body of `success`, `ok` or JSON whose `code` is 0; anything else is retried: at once, then after 15 s, 1 min, 3 min, 10 min, 30 min, 1 h, 2 h, 6 h and 15 h (10 attempts over about 25 hours).",
            '`redirectUrl` is never proof of payment; use this notification or the query.',
          ].join(' '),
          requestBody: {
            required: true,
            content: {
              'application/x-www-form-urlencoded': {
                schema: { oneOf: [ref('UsdtNotification'), ref('YhtNotification'), ref('AlipayNotification'), ref('WechatNotification')] },
                examples: {
                  usdt: { value: signedExample(usdtNotificationExample(appId)) },
                  yht: { value: signedExample(yhtNotificationExample(appId)) },
                  alipay: { summary: 'ALIPAY', value: signedExample(alipayNotificationExample(appId)) },
                },
              },
            },
          },
          responses: {
            '200': { description: 'Acknowledged: body `success`, `ok`, or JSON with `code` 0.', content: { 'text/plain': { schema: { type: 'string', enum: ['success', 'ok'] } } } },
          },
        },
      },
    },
    components: {
      schemas: schemas(),
    },
  };
}
