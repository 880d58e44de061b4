import { openApiRoute } from './open-api-route';
import { closeByMerchantOrderNo, queryByPayType, submitByPayType, submitRemembersMerchant } from '../channels/open-api-orders';
import { queryRefundOfMerchant, submitRefundOfOrder } from '../channels/open-api-refunds';

/** POST /v1/api/open/order/submit: Next.js serves `POST`, the service's own server calls `core`. */
export const submitEndpoint = openApiRoute('submit', submitByPayType, { remembersMerchant: submitRemembersMerchant });
/** POST /v1/api/open/order/query. */
export const queryEndpoint = openApiRoute('query', queryByPayType, { remembersMerchant: () => true });
/** POST /v1/api/open/order/close. */
export const closeEndpoint = openApiRoute('close', closeByMerchantOrderNo);
/** POST /v1/api/open/refund/submit. */
export const refundSubmitEndpoint = openApiRoute('refund_submit', submitRefundOfOrder);
/** POST /v1/api/open/refund/query. */
export const refundQueryEndpoint = openApiRoute('refund_query', queryRefundOfMerchant);
