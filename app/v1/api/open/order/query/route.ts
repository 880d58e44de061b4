import { openApiRoute } from '@/lib/api/open-api-route';
import { queryOrder } from '@/lib/orders/query-order';

export const dynamic = 'force-dynamic';

const endpoint = openApiRoute(queryOrder);
/** Next.js's handler; the service's own server calls `core` (same endpoint, no Request/Response). */
export const POST = endpoint.POST;
export const core = endpoint.core;
