import { common, decimal2, str, url, type Schema } from '../../contract/schema-parts';
import { REFUND_QUERY_PATH, REFUND_SUBMIT_PATH } from '../../contract/open-api-paths';
import { CHANNELS } from '../../channels';
import { channelNames } from './channel-list';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const merchantRefundNo = str('Your refund number, unique among your refunds: the idempotency key. 1–64 letters, digits or `_-|*@`.', {
  minLength: 1,
  maxLength: 64,
  pattern: '^[0-9A-Za-z_\\-|*@]{1,64}$',
});
const REFUND_STATUSES = ['processing', 'abnormal', 'succeeded', 'failed', 'closed'];

/** What each refunding channel's upstream calls the platform's refund number: "A's name, B's name". */
const upstreamRefundNumbers = (): string => CHANNELS.flatMap((channel) => channel.openApi.refundBehaviour?.refundNoUpstream ?? []).join(', ');

/** The upstream states an `abnormal` refund stands for: "CHANNEL STATE". */
const abnormalStates = (): string =>
  CHANNELS.flatMap((channel) => {
    const state = channel.openApi.refundBehaviour?.abnormalState;
    return state === undefined ? [] : [`${channel.name} ${state}`];
  }).join(', ');

/** The refund requests', answer's and notice's schemas. */
export function refundSchemas(): Record<string, Schema> {
  return {
    RefundSubmitRequest: {
      type: 'object',
      required: ['appId', 'merchantOrderNo', 'merchantRefundNo', 'refundAmount', 'signature'],
      properties: {
        appId: common.appId,
        merchantOrderNo: str('The paid order to refund (any channel).', { minLength: 1, maxLength: 64 }),
        merchantRefundNo,
        refundAmount: decimal2("More than 0, in the order's currency; the sum of the order's refunds never exceeds what was paid (1023)."),
        reason: str('Passed to the upstream.', { maxLength: 80 }),
        notifyUrl: url("Receives the refund's final state (the `refundFinished` webhook); without it nothing is sent. Never the order's payment notifyUrl."),
        signature: common.signature,
      },
    },
    RefundQueryRequest: {
      type: 'object',
      required: ['appId', 'merchantRefundNo', 'signature'],
      properties: { appId: common.appId, merchantRefundNo, signature: common.signature },
    },
    RefundData: {
      type: 'object',
      required: ['refundNo', 'merchantRefundNo', 'platformOrderNo', 'merchantOrderNo', 'payType', 'refundAmount', 'status', 'failureReason', 'upstreamRefundId', 'refundedAmount', 'createTime', 'finishTime'],
      properties: {
        refundNo: str(`The platform's refund number (${upstreamRefundNumbers()}).`),
        merchantRefundNo: str('Echoed.'),
        platformOrderNo: str('Platform order number.'),
        merchantOrderNo: str('Echoed.'),
        payType: str("The order's channel."),
        refundAmount: decimal2('This refund.'),
        status: str(
          'processing: not known to be done (in progress, or no answer the service can trust: asked about and sent again with the same number; never refund again under a new number). ' +
            `abnormal (${abnormalStates()}): the money left the balance, the payer could not take it; reserved, apply the remedy in the portal; a later succeeded or closed follows. ` +
            'succeeded, failed (a documented definitive refusal, confirmed by the refund query; the amount is free), closed (the amount is free): final.',
          { enum: REFUND_STATUSES },
        ),
        failureReason: { type: ['string', 'null'], description: "The upstream's code and reason when failed, closed or abnormal; while processing, what is not confirmed yet." },
        upstreamRefundId: { type: ['string', 'null'], description: "The upstream's refund or trade number, once known." },
        refundedAmount: decimal2("The order's refunds that succeeded, now."),
        createTime: { type: 'integer', description: 'Unix seconds.' },
        finishTime: { type: ['integer', 'null'], description: 'Unix seconds; null while processing or abnormal.' },
      },
    },
    RefundNotification: {
      type: 'object',
      required: ['appId', 'notifyType', 'refundNo', 'merchantRefundNo', 'platformOrderNo', 'merchantOrderNo', 'payType', 'refundAmount', 'refundedAmount', 'status', 'signature'],
      properties: {
        appId: str('Merchant AppID.'),
        notifyType: str("'refund'.", { const: 'refund' }),
        refundNo: str("The platform's refund number."),
        merchantRefundNo: str('Process idempotently by it.'),
        platformOrderNo: str('Platform order number.'),
        merchantOrderNo: str('Merchant order number.'),
        payType: str("The order's channel."),
        refundAmount: decimal2('This refund.'),
        refundedAmount: decimal2("The order's refunds that succeeded."),
        status: str('abnormal (not final: do not refund again; its final state is notified later), or the final state.', { enum: REFUND_STATUSES.slice(1) }),
        failureReason: str('Empty unless failed, closed or abnormal.'),
        finishTime: str('Unix seconds; empty while abnormal.'),
        signature: str('Signed with the AppSecret; recompute it over every non-empty field but `signature`.'),
      },
    },
  };
}

function operation(operationId: string, summary: string, description: string, request: string, errorResponses: Record<string, Schema>): Schema {
  return {
    post: {
      operationId,
      tags: ['refunds'],
      summary,
      description,
      requestBody: { required: true, content: { 'application/json': { schema: ref(request) } } },
      responses: {
        '200': {
          description: "The envelope (message 'success'); on errors see ErrorEnvelope.",
          content: {
            'application/json': {
              schema: { oneOf: [{ type: 'object', required: ['code', 'message', 'data'], properties: { code: { const: 0 }, message: { const: 'success' }, data: ref('RefundData') } }, ref('ErrorEnvelope')] },
            },
          },
        },
        ...errorResponses,
      },
    },
  };
}

export function refundPaths(errorResponses: Record<string, Schema>): Record<string, Schema> {
  return {
    [REFUND_SUBMIT_PATH]: operation(
      'submitRefund',
      'Refund a paid order, in part or in full',
      `Several refunds per order; their sum never exceeds what was paid (1023). The same \`merchantRefundNo\` with the same fields answers the same refund; with another field 1007. ${channelNames((channel) => !channel.refunds.offered)}: 1020 (the message says how to refund).`,
      'RefundSubmitRequest',
      errorResponses,
    ),
    [REFUND_QUERY_PATH]: operation('queryRefund', 'Read one refund', 'By `merchantRefundNo` within the authenticated merchant; none: 1024.', 'RefundQueryRequest', errorResponses),
  };
}

export const refundWebhook: Schema = {
  post: {
    operationId: 'refundFinishedNotification',
    summary: "A refund's final state (and, before it, abnormal), POSTed to the refund request's own `notifyUrl`",
    description: 'Form-encoded and signed like the payment notification, retried on the same plan; `notifyType` is `refund`. Acknowledge with HTTP 2xx and `success`.',
    requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: ref('RefundNotification') } } },
    responses: { '200': { description: 'Acknowledged.' } },
  },
};
