import { chainWatcherJob, usdtExpiryJob } from '../chain/chain-jobs';
import { alipayPollerJob } from '../channels/alipay/poll-pending-orders';
import { wechatPollerJob } from '../channels/wechat/poll-pending-orders';
import { yhtPollerJob } from '../channels/yht/poll-pending-orders';
import { pruneJob } from '../security/prune-unauthenticated-input';
import type { PeriodicJob } from './periodic-job';

/** Every periodic background job of the service; each channel or concern adds its own entry here. */
export const PERIODIC_JOBS: readonly PeriodicJob[] = [chainWatcherJob, usdtExpiryJob, yhtPollerJob, alipayPollerJob, wechatPollerJob, pruneJob];
