import { openApiRoute } from '@/lib/api/open-api-route';
import { queryOrder } from '@/lib/orders/query-order';

export const dynamic = 'force-dynamic';
export const POST = openApiRoute(queryOrder);
