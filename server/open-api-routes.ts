import type { OpenApiCore } from '../lib/api/open-api-route';
import { openApiDocumentGet } from '../lib/api/openapi/document-route';
import { CLOSE_PATH, OPENAPI_DOCUMENT_PATH, QUERY_PATH, REFUND_QUERY_PATH, REFUND_SUBMIT_PATH, SUBMIT_PATH } from '../lib/api/openapi/document';
import { callbackSegment, CHANNELS } from '../lib/channels';
import { healthzGet, readyzGet } from '../lib/health/probe-routes';
import { countedCallbackReceiver } from '../lib/channels/receive-channel-callback';
import { metricsGet } from '../lib/health/metrics-route';
import { closeEndpoint, queryEndpoint, refundQueryEndpoint, refundSubmitEndpoint, submitEndpoint } from '../lib/api/open-api-endpoints';

/**
 * How the service's own server runs a route: an open-API endpoint's transport-free core (no Web Request/Response
 * objects: the merchants' hot path), any other POST handler through a Request/Response bridge, or a GET handler
 * (health probes, the OpenAPI document) through the same bridge.
 */
export type ServerRoute = { openApi: OpenApiCore } | { web: (request: Request) => Promise<Response> } | { get: (request: Request) => Promise<Response> };

/**
 * The open API and the machine-to-machine endpoints (upstream callbacks, by the channel registry), dispatched by the
 * service's own HTTP server without Next.js's request pipeline (the hot path of every merchant). The handlers live
 * in lib/; Next.js serves the same handlers through app/ when the app runs without this server.
 */
export const OPEN_API_ROUTES: ReadonlyMap<string, ServerRoute> = new Map<string, ServerRoute>([
  [SUBMIT_PATH, { openApi: submitEndpoint.core }],
  [QUERY_PATH, { openApi: queryEndpoint.core }],
  [REFUND_SUBMIT_PATH, { openApi: refundSubmitEndpoint.core }],
  [REFUND_QUERY_PATH, { openApi: refundQueryEndpoint.core }],
  [CLOSE_PATH, { openApi: closeEndpoint.core }],
  ...CHANNELS.flatMap((channel): [string, ServerRoute][] => (channel.callback ? [[`/v1/api/callback/${callbackSegment(channel)}`, { web: countedCallbackReceiver(channel) }]] : [])),
  [OPENAPI_DOCUMENT_PATH, { get: openApiDocumentGet }],
  // Probes answer before Next.js is ready (it prepares after the database and workers start).
  ['/healthz', { get: healthzGet }],
  ['/readyz', { get: readyzGet }],
  ['/metrics', { get: metricsGet }],
]);
