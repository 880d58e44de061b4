import { closeEndpoint } from '@/lib/api/open-api-endpoints';

export const dynamic = 'force-dynamic';

/** Next.js's handler; the service's own server calls the endpoint's `core` (same endpoint, no Request/Response). */
export const POST = closeEndpoint.POST;
