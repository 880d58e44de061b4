import { getDb } from '@/lib/db/client';
import { readiness } from '@/lib/health/health-replies';

export const dynamic = 'force-dynamic';

/** GET /readyz (readiness: database answers, every migration applied). Dispatched by the service's own server too. */
export async function GET(): Promise<Response> {
  const { status, body } = await readiness(() => getDb().$client);
  return Response.json(body, { status, headers: { 'cache-control': 'no-store' } });
}
