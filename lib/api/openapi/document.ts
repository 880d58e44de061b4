import { CLOSE_PATH, OPENAPI_DOCUMENT_PATH, QUERY_PATH, REFUND_QUERY_PATH, REFUND_SUBMIT_PATH, SUBMIT_PATH } from '../../contract/open-api-paths';
import { DOCUMENTED_ERRORS } from './error-catalogue';
import { CHANNEL_NAMES, CHANNELS } from '../../channels';
import type { Channel, ChannelOpenApi } from '../../channels/channel';
import { PLACEHOLDER_APP_ID, PLACEHOLDER_APP_SECRET, signedExample } from '../../contract/examples';
import { common, decimal2, refundedAmount, str, url, type Schema } from '../../contract/schema-parts';
import { channelNames } from './channel-list';
import { refundPaths, refundSchemas, refundWebhook } from './refund-paths';

/**
 * The open API as an OpenAPI 3.1 document (served at GET /v1/api/open/openapi.json). It follows the merchant
 * interface (docs/merchant-api.md) and docs/open-api.md; tests send its examples to the service.
 */

export { CLOSE_PATH, OPENAPI_DOCUMENT_PATH, QUERY_PATH, REFUND_QUERY_PATH, REFUND_SUBMIT_PATH, SUBMIT_PATH };

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


/** The channels answering with the shared DirectCreateData (message 'ok'), as 'A and B'. */
const directChannels = (): string => channelNames((channel) => channel.openApi.createData === 'DirectCreateData');

/** The close notice's description of an order-number field: the channels whose notices name the order by it. */
const orderNumberOn = (field: Channel['orderNumberField']): string =>
  `Platform order number on ${channelNames((channel) => channel.orderNumberField === field)} (the name their payment notification gives it).`;

/** What closing an order does on each channel, in registry order: "A does this; B does that". */
const closeBehaviours = (): string => CHANNELS.map((channel) => `${channel.name} ${channel.openApi.closeBehaviour}`).join('; ');

/** One schema reference per distinct schema name a channel part names, in registry order. */
function channelRefs(part: keyof Pick<ChannelOpenApi, 'submitRequest' | 'createData' | 'queryData' | 'notification'>, wrap: (name: string, channel: Channel) => Schema = (name) => ref(name)): Schema[] {
  const seen = new Set<string>();
  return CHANNELS.flatMap((channel) => {
    const name = channel.openApi[part];
    if (seen.has(name)) return [];
    seen.add(name);
    return [wrap(name, channel)];
  });
}

function schemas(): Record<string, Schema> {
  return {
    ...Object.assign({}, ...CHANNELS.map((channel) => channel.openApi.schemas)),
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
    DirectCreateData: {
      type: 'object',
      description: `${directChannels()} (message 'ok').`,
      required: ['platformOrderNo', 'merchantOrderNo', 'amount', 'credentialId', 'payUrl', 'recovered'],
      properties: {
        platformOrderNo: str('Platform order number.'),
        merchantOrderNo: str('Echoed.'),
        amount: decimal2('CNY.'),
        credentialId: { type: 'integer', description: 'The credential the order is bound to.' },
        payUrl: url('Open in the payer\'s browser: the service\'s checkout page, or the upstream payment address (see the channel\'s submit request).'),
        recovered: { type: 'boolean', description: 'true when this is an idempotent retry.' },
      },
    },
    QueryRequest: {
      type: 'object',
      required: ['appId', 'merchantOrderNo', 'signature'],
      properties: {
        appId: common.appId,
        merchantOrderNo: str('Looked up within the authenticated merchant only.'),
        payType: str(`Absent (or '${CHANNEL_NAMES[0]}'): a ${CHANNEL_NAMES[0]} order. ${CHANNEL_NAMES.slice(1).map((name) => `'${name}'`).join(', ')}: an order of that channel (another channel's order, or none: 1006). Signed when sent.`, {
          enum: [...CHANNEL_NAMES],
        }),
        signature: common.signature,
      },
    },
    CloseRequest: {
      type: 'object',
      required: ['appId', 'merchantOrderNo', 'signature'],
      properties: {
        appId: common.appId,
        merchantOrderNo: str('Looked up within the authenticated merchant only, on every channel.'),
        payType: str("When sent (and signed), it must be the order's channel: another channel's order is 1006.", { enum: [...CHANNEL_NAMES] }),
        signature: common.signature,
      },
    },
    CloseNotice: {
      type: 'object',
      description: 'Opt-in (off by default, in the back office): sent when an order is closed or expires. `status` is never PAID.',
      required: ['appId', 'merchantOrderNo', 'payType', 'status', 'closeTime', 'signature'],
      properties: {
        appId: common.appId,
        orderNo: str(orderNumberOn('orderNo')),
        platformOrderNo: str(orderNumberOn('platformOrderNo')),
        merchantOrderNo: str('The merchant order number.'),
        payType: str('The order channel.', { enum: [...CHANNEL_NAMES] }),
        status: str('CLOSED: closed by the merchant or the payer; EXPIRED: the payment window ended unpaid.', { enum: ['CLOSED', 'EXPIRED'] }),
        closeTime: str('Unix seconds.'),
        attach: str('Echoed from the order (empty when none).'),
        signature: common.signature,
      },
    },
    DirectQueryData: {
      type: 'object',
      description: `${directChannels()} (message 'ok'); \`tradeNo\` and \`payTime\` are null until the order is paid.`,
      required: ['platformOrderNo', 'merchantOrderNo', 'amount', 'status', 'tradeNo', 'payTime', 'refundedAmount'],
      properties: {
        refundedAmount,
        platformOrderNo: str('Platform order number.'),
        merchantOrderNo: str('Echoed.'),
        amount: decimal2('CNY.'),
        status: { type: 'integer', enum: [1, 2, 3], description: '1 pending, 2 paid, 3 closed.' },
        tradeNo: { type: ['string', 'null'], description: 'Upstream trade number (null until paid).' },
        payTime: { type: ['integer', 'null'], description: 'Unix seconds (null until paid).' },
      },
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

/** Which message each channel's success answer carries: "'success' for A and B; 'ok' for C". */
function successMessages(): string {
  const byMessage = new Map<string, string[]>();
  for (const channel of CHANNELS) byMessage.set(channel.successMessage, [...(byMessage.get(channel.successMessage) ?? []), channel.name]);
  return [...byMessage].map(([message, names]) => `'${message}' for ${names.join(' and ')}`).join('; ');
}
const envelopeOf = (data: Schema, message: string): Schema => ({
  type: 'object',
  required: ['code', 'message', 'data'],
  properties: { code: { const: 0 }, message: { type: 'string', description: message }, data },
});

function errorResponses(): Record<string, Schema> {
  return {
    '405': { description: 'Method other than POST: code 1003 `method must be POST`, header `Allow: POST`.', content: { 'application/json': { schema: ref('ErrorEnvelope') } } },
    '500': { description: 'Unexpected failure: code 1000 `internal error`.', content: { 'application/json': { schema: ref('ErrorEnvelope') } } },
    '503': {
      description: 'The database is unreachable for now: code 1000 `service temporarily unavailable; retry later`, header `Retry-After` (seconds). Retry the same request.',
      headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait before retrying.' } },
      content: { 'application/json': { schema: ref('ErrorEnvelope') } },
    },
  };
}

/** The answers of an operation whose data is the order as the query answers it (query, close). */
function queryDataResponses(): Record<string, Schema> {
  return {
    '200': {
      description: 'The envelope; on errors see ErrorEnvelope.',
      content: {
        'application/json': {
          schema: { oneOf: [...channelRefs('queryData', (name, channel) => envelopeOf(ref(name), `'${channel.successMessage}'`)), ref('ErrorEnvelope')] },
        },
      },
    },
    ...errorResponses(),
  };
}

/** Each registry channel's signed example of one operation, keyed by the channel's name in lower case. */
function channelExamples(operation: keyof Channel['examples'], appId: string, summary: (channel: Channel) => string): Record<string, Schema> {
  return Object.fromEntries(
    CHANNELS.map((channel) => [channel.name.toLowerCase(), { summary: summary(channel), value: signedExample(channel.examples[operation](appId)) }]),
  );
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
        'Create payment orders, read their state and close them. Every request is a JSON object POSTed with `Content-Type: application/json`',
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
        `${CHANNELS.map((channel) => channel.label).join(', ')} are available.`,
      ].join('\n'),
    },
    servers: [{ url: options.serverUrl ?? '/' }],
    tags: [{ name: 'orders' }, { name: 'refunds' }, { name: 'documentation' }],
    paths: {
      [SUBMIT_PATH]: {
        post: {
          operationId: 'submitOrder',
          tags: ['orders'],
          summary: 'Create a payment order',
          description: `Channel by \`payType\`: ${CHANNEL_NAMES.map((name, index) => (index === 0 ? `${name} (or omitted)` : name)).join(', ')}. A repeat with the same \`merchantOrderNo\` and the same immutable fields returns the original order; otherwise 1007.`,
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: { oneOf: channelRefs('submitRequest') },
                examples: channelExamples('submit', appId, (channel) => channel.label),
              },
            },
          },
          responses: {
            '200': {
              description: `The envelope. \`message\` is ${successMessages()}; on errors see ErrorEnvelope.`,
              content: {
                'application/json': {
                  schema: { oneOf: [...channelRefs('createData', (name, channel) => envelopeOf(ref(name), `'${channel.successMessage}'`)), ref('ErrorEnvelope')] },
                  examples: {
                    ...Object.fromEntries(
                      CHANNELS.filter((channel) => channel.openApi.submitReplyExample !== undefined).map((channel) => [channel.name.toLowerCase(), { value: channel.openApi.submitReplyExample }]),
                    ),
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
            content: { 'application/json': { schema: ref('QueryRequest'), examples: channelExamples('query', appId, (channel) => `${channel.label} order`),
              },
            },
          },
          responses: queryDataResponses(),
        },
      },
      [CLOSE_PATH]: {
        post: {
          operationId: 'closeOrder',
          tags: ['orders'],
          summary: 'Close a pending order',
          description: [
            `The channel is told first (${closeBehaviours()}).`,
            'A payment the channel reports wins: the order becomes paid (notified as usual) and the close answers 1012 naming the state.',
            'Closing a closed order answers the same; a paid or expired order: 1012. `data` is the order as the query answers it.',
          ].join(' '),
          requestBody: {
            required: true,
            content: { 'application/json': { schema: ref('CloseRequest'), examples: channelExamples('query', appId, (channel) => `${channel.label} order`) } },
          },
          responses: queryDataResponses(),
        },
      },
      ...refundPaths(errorResponses()),
    },
    webhooks: {
      refundFinished: refundWebhook,
      orderClosedOrExpired: {
        post: {
          operationId: 'orderClosedNotice',
          summary: "Close and expiry notice (opt-in), POSTed to the order's `notifyUrl`",
          description:
            'Off by default; the merchant turns it on in the back office. Signed like the payment notification and delivered, retried and logged the same way. Credit only `status` PAID: this notice says CLOSED or EXPIRED.',
          requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: ref('CloseNotice') } } },
          responses: { '200': { description: 'Acknowledged: body `success`, `ok`, or JSON with `code` 0.' } },
        },
      },
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
                schema: { oneOf: channelRefs('notification') },
                examples: channelExamples('notification', appId, (channel) => channel.label),
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
      schemas: { ...schemas(), ...refundSchemas() },
    },
  };
}
