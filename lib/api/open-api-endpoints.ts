import { openApiRoute } from './open-api-route';
import { queryOrder } from '../orders/query-order';
import { submitOrder } from '../orders/submit-order';

/** POST /v1/api/open/order/submit: Next.js serves `POST`, the service's own server calls `core`. */
export const submitEndpoint = openApiRoute(submitOrder);
/** POST /v1/api/open/order/query. */
export const queryEndpoint = openApiRoute(queryOrder);
