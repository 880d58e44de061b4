import { openApiRoute } from '@/lib/api/open-api-route';
import { submitOrder } from '@/lib/orders/submit-order';

export const dynamic = 'force-dynamic';

const endpoint = openApiRoute(submitOrder);
/** Next.js's handler; the service's own server calls `core` (same endpoint, no Request/Response). */
export const POST = endpoint.POST;
export const core = endpoint.core;
