import type { OpenApiCore } from '../lib/api/open-api-route';
import * as healthzRoute from '../app/healthz/route';
import * as readyzRoute from '../app/readyz/route';
import * as wechatCallbackRoute from '../app/v1/api/callback/wechat/route';
import * as alipayCallbackRoute from '../app/v1/api/callback/alipay/route';
import * as yhtCallbackRoute from '../app/v1/api/callback/yht/route';
import * as openApiDocumentRoute from '../app/v1/api/open/openapi.json/route';
import * as queryRoute from '../app/v1/api/open/order/query/route';
import * as submitRoute from '../app/v1/api/open/order/submit/route';

/**
 * How the service's own server runs a route: an open-API endpoint's transport-free core (no Web Request/Response
 * objects: the merchants' hot path), any other POST handler through a Request/Response bridge, or a GET handler
 * (health probes, the OpenAPI document) through the same bridge.
 */
export type ServerRoute = { openApi: OpenApiCore } | { web: (request: Request) => Promise<Response> } | { get: (request: Request) => Promise<Response> };

/**
 * The open API's route files (and machine-to-machine endpoints such as upstream callbacks), dispatched by the
 * service's own HTTP server without Next.js's request pipeline (the hot path of every merchant). Each route file stays the single definition of its endpoint; Next.js serves
 * the same files when the app runs without this server.
 */
export const OPEN_API_ROUTES: ReadonlyMap<string, ServerRoute> = new Map<string, ServerRoute>([
  ['/v1/api/open/order/submit', { openApi: submitRoute.core }],
  ['/v1/api/open/order/query', { openApi: queryRoute.core }],
  ['/v1/api/callback/yht', { web: yhtCallbackRoute.POST }],
  ['/v1/api/callback/wechat', { web: wechatCallbackRoute.POST }],
  ['/v1/api/callback/alipay', { web: alipayCallbackRoute.POST }],
  ['/v1/api/open/openapi.json', { get: openApiDocumentRoute.GET }],
  // Probes answer before Next.js is ready (it prepares after the database and workers start).
  ['/healthz', { get: healthzRoute.GET }],
  ['/readyz', { get: readyzRoute.GET }],
]);
