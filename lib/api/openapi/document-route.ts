import { publicBaseUrl } from '../../orders/identifiers';
import { buildOpenApiDocument } from './document';

let cached: { serverUrl: string; json: string } | undefined;

/** GET /v1/api/open/openapi.json: the OpenAPI 3.1 description of the open API (dispatched by the service's own server too). */
export async function openApiDocumentGet(): Promise<Response> {
  const serverUrl = publicBaseUrl();
  if (cached?.serverUrl !== serverUrl) cached = { serverUrl, json: JSON.stringify(buildOpenApiDocument({ serverUrl })) };
  return new Response(cached.json, { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'public, max-age=300' } });
}
