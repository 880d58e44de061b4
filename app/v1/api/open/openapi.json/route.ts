import { openApiDocumentGet } from '@/lib/api/openapi/document-route';

export const dynamic = 'force-dynamic';

/** GET /v1/api/open/openapi.json (lib/api/openapi/document-route.ts; the service's own server dispatches it too). */
export const GET = openApiDocumentGet;
