import { getDb } from '../db/client';
import { HEALTH_DETAILS_REFUSAL, mayReadHealthDetails } from './details-access';
import { liveness, livenessWithDetails, readiness } from './health-replies';
import { healthSnapshot } from '../operator/health';

/**
 * GET /healthz (liveness). The service's own server dispatches it before Next.js is ready; Next.js serves it
 * otherwise. `?details` adds the operator's health figures (a bounded database read; still 200 while the process
 * lives) for an operator session or the HEALTH_DETAILS_TOKEN only.
 */
export async function healthzGet(request?: Request): Promise<Response> {
  const wantsDetails = request ? new URL(request.url).searchParams.has('details') : false;
  if (wantsDetails && !(await mayReadHealthDetails(getDb, request!))) {
    return Response.json({ status: 'ok', error: HEALTH_DETAILS_REFUSAL }, { status: 401, headers: { 'cache-control': 'no-store' } });
  }
  const { status, body } = wantsDetails ? await livenessWithDetails(() => healthSnapshot(getDb(), new Date())) : liveness();
  return Response.json(body, { status, headers: { 'cache-control': 'no-store' } });
}

/** GET /readyz (readiness: database answers, every migration applied). Dispatched by the service's own server too. */
export async function readyzGet(): Promise<Response> {
  const { status, body } = await readiness(() => getDb().$client);
  return Response.json(body, { status, headers: { 'cache-control': 'no-store' } });
}
