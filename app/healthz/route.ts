import { getDb } from '@/lib/db/client';
import { liveness, livenessWithDetails } from '@/lib/health/health-replies';
import { healthSnapshot } from '@/lib/operator/health';

export const dynamic = 'force-dynamic';

/**
 * GET /healthz (liveness). The service's own server dispatches it before Next.js is ready; Next.js serves this file
 * otherwise. `?details` adds the operator's health figures (a bounded database read; still 200 while the process lives).
 */
export async function GET(request?: Request): Promise<Response> {
  const wantsDetails = request ? new URL(request.url).searchParams.has('details') : false;
  const { status, body } = wantsDetails ? await livenessWithDetails(() => healthSnapshot(getDb(), new Date())) : liveness();
  return Response.json(body, { status, headers: { 'cache-control': 'no-store' } });
}
