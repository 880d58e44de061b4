import { openApiRoute } from './open-api-route';
import { queryByPayType, submitByPayType } from '../channels/open-api-orders';

/** POST /v1/api/open/order/submit: Next.js serves `POST`, the service's own server calls `core`. */
export const submitEndpoint = openApiRoute('submit', submitByPayType);
/** POST /v1/api/open/order/query. */
export const queryEndpoint = openApiRoute('query', queryByPayType);
