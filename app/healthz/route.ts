import { getDb } from '@/lib/db/client';
import { HEALTH_DETAILS_REFUSAL, mayReadHealthDetails } from '@/lib/health/details-access';
import { liveness, livenessWithDetails } from '@/lib/health/health-replies';
import { healthSnapshot } from '@/lib/operator/health';

export const dynamic = 'force-dynamic';

/**
 * GET /healthz (liveness). The service's own server dispatches it before Next.js is ready; Next.js serves this file
 * otherwise. `?details` adds the operator's health figures (a bounded database read; still 200 while the process
 * lives) for an operator session or the HEALTH_DETAILS_TOKEN only.
 */
export async function GET(request?: Request): Promise<Response> {
  const wantsDetails = request ? new URL(request.url).searchParams.has('details') : false;
  if (wantsDetails && !(await mayReadHealthDetails(getDb, request!))) {
    return Response.json({ status: 'ok', error: HEALTH_DETAILS_REFUSAL }, { status: 401, headers: { 'cache-control': 'no-store' } });
  }
  const { status, body } = wantsDetails ? await livenessWithDetails(() => healthSnapshot(getDb(), new Date())) : liveness();
  return Response.json(body, { status, headers: { 'cache-control': 'no-store' } });
}
