import { liveness } from '@/lib/health/health-replies';

export const dynamic = 'force-dynamic';

/** GET /healthz (liveness). The service's own server dispatches it before Next.js is ready; Next.js serves this file otherwise. */
export async function GET(): Promise<Response> {
  const { status, body } = liveness();
  return Response.json(body, { status, headers: { 'cache-control': 'no-store' } });
}
