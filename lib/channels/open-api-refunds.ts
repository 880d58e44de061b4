import type { OrderRow } from '../db/schema';
import type { ChannelRefunds } from '../refunds/channel-refunds';
import { pollProcessingRefunds } from '../refunds/poll-refunds';
import { parseRefundRequest, requireMerchantRefundNo } from '../refunds/refund-request';
import { refundData } from '../refunds/refund-view';
import { findMerchantRefund, submitRefund } from '../refunds/submit-refund';
import { success, type SignedRequest, type SuccessAnswer } from '../validation/signed-request';
import type { PeriodicJob } from '../jobs/periodic-job';
import { pollIntervalMs } from './poller/channel-poller-job';
import { channelNamed } from '.';

/** The refund rules of an order's channel (the registry's). */
export function refundsOfOrder(order: Pick<OrderRow, 'channel'>): ChannelRefunds {
  const channel = channelNamed(order.channel);
  return channel?.refunds ?? { offered: false, refusal: `channel ${order.channel} has no refunds` };
}

/** POST /v1/api/open/refund/submit: the order's own channel refunds it (whatever payType says). */
export async function submitRefundOfOrder({ db, merchant, fields }: SignedRequest): Promise<SuccessAnswer> {
  const request = parseRefundRequest(fields);
  const { refund, order } = await submitRefund(db, { merchantId: merchant.id, request, channelOf: refundsOfOrder, actor: `api:${merchant.appId}` });
  return success('success', refundData(refund, order));
}

/** POST /v1/api/open/refund/query. */
export async function queryRefundOfMerchant({ db, merchant, fields }: SignedRequest): Promise<SuccessAnswer> {
  const { refund, order } = await findMerchantRefund(db, merchant.id, requireMerchantRefundNo(fields));
  return success('success', refundData(refund, order));
}

/** Processing refunds of every channel, asked about until final (lib/refunds/poll-refunds.ts). */
export const refundPollerJob: PeriodicJob = {
  name: 'refund-poller',
  intervalMs: pollIntervalMs('REFUND_POLL_INTERVAL_MS', 10_000),
  async run({ db, clock, log }) {
    const summary = await pollProcessingRefunds(db, clock.now(), (name) => channelNamed(name)?.refunds);
    if (summary.finished > 0) log(`refunds: ${summary.checked} processing refund(s) checked, ${summary.finished} final`);
  },
};
