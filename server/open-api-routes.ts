import * as yhtCallbackRoute from '../app/v1/api/callback/yht/route';
import * as queryRoute from '../app/v1/api/open/order/query/route';
import * as submitRoute from '../app/v1/api/open/order/submit/route';

/**
 * The open API's route files (and machine-to-machine endpoints such as upstream callbacks), dispatched by the
 * service's own HTTP server without Next.js's request pipeline (the hot path of every merchant). Each route file stays the single definition of its endpoint; Next.js serves
 * the same files when the app runs without this server.
 */
export const OPEN_API_ROUTES: ReadonlyMap<string, (request: Request) => Promise<Response>> = new Map([
  ['/v1/api/open/order/submit', submitRoute.POST],
  ['/v1/api/open/order/query', queryRoute.POST],
  ['/v1/api/callback/yht', yhtCallbackRoute.POST],
]);
