import { CHANNELS } from '../channels';
import { refundPollerJob } from '../channels/open-api-refunds';
import { reconciliationJob } from '../reconciliation/reconcile-job';
import { pruneJob } from '../security/prune-unauthenticated-input';
import type { PeriodicJob } from '../jobs/periodic-job';

/** Every periodic background job of the service: each channel's own (from the registry), then the shared ones. */
export const PERIODIC_JOBS: readonly PeriodicJob[] = [...CHANNELS.flatMap((channel) => channel.jobs), refundPollerJob, pruneJob, reconciliationJob(CHANNELS)];
