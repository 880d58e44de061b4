import { healthzGet } from '@/lib/health/probe-routes';

export const dynamic = 'force-dynamic';

/** GET /healthz (lib/health/probe-routes.ts; the service's own server dispatches the same handler). */
export const GET = healthzGet;
