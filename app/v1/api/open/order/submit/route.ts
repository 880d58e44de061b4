import { openApiRoute } from '@/lib/api/open-api-route';
import { submitOrder } from '@/lib/orders/submit-order';

export const dynamic = 'force-dynamic';
export const POST = openApiRoute(submitOrder);
