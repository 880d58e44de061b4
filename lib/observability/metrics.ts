import { Counter, Histogram, Registry } from 'prom-client';
import { CHANNEL_NAMES } from '../channels/channel-names';
import { log } from './logger';

/**
 * The process's Prometheus metrics (GET /metrics on the web process, METRICS_PORT on the worker). Counters and
 * histograms live in memory only: recording one costs a label lookup and an addition, never database work, so the
 * open API's hot path stays as fast as it was. Gauges that describe the database's state (queue, circuits, chain
 * lag) are read when Prometheus scrapes (lib/health/scrape-gauges.ts).
 *
 * Every label value comes from a closed set (channel names, endpoint names, envelope codes, verdicts, outcomes):
 * never an order number, a merchant, a URL or a message, so the number of series stays bounded.
 */
const globalForMetrics = globalThis as unknown as { __paymentMetrics?: ReturnType<typeof createMetrics> };

/** A channel label: a known channel name, or 'unknown' for anything a caller sent (bounded whatever is sent). */
export function channelLabel(value: unknown): string {
  return typeof value === 'string' && (CHANNEL_NAMES as readonly string[]).includes(value) ? value : 'unknown';
}

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** A payment's way from paid to its merchant acknowledging: seconds when all is well, hours when it retries. */
const DELIVERY_BUCKETS = [0.1, 0.5, 1, 2, 5, 10, 30, 60, 300, 900, 3600, 6 * 3600, 24 * 3600];

/** Chain payments: a poll interval (3–5 s) is the expected scale, two of them plus a second the worst wanted. */
const CHAIN_LATENCY_BUCKETS = [0.25, 0.5, 1, 2, 3, 4, 5, 7, 10, 15, 30, 60, 300];

/** An EVM chain as its watcher last saw it: blocks behind the last final block, and its endpoints by state. */
export interface EvmWatchState {
  lagBlocks: number | undefined;
  endpoints: Record<'ok' | 'failing' | 'blocked', number>;
}

function createMetrics() {
  const registry = new Registry();
  const registers = [registry];
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) => new Counter<L>({ name, help, labelNames, registers });
  const histogram = <L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]) =>
    new Histogram<L>({ name, help, labelNames, buckets, registers });
  return {
    registry,
    /** What this process's EVM watcher saw on its last pass of each chain; read at scrape time (lib/health/scrape-gauges.ts). */
    evmWatch: new Map<string, EvmWatchState>(),
    openApiRequests: counter(
      'payment_open_api_requests_total',
      'Open-API requests answered, by endpoint, channel (payType) and envelope code (0: success).',
      ['endpoint', 'channel', 'code'],
    ),
    openApiDuration: histogram(
      'payment_open_api_request_duration_seconds',
      'Time to answer an open-API request (body read to answer), by endpoint and channel.',
      ['endpoint', 'channel'],
      LATENCY_BUCKETS,
    ),
    orders: counter(
      'payment_orders_total',
      'Orders moving through their lifecycle, by channel and event (created, paid, closed by the upstream, expired).',
      ['channel', 'event'],
    ),
    upstreamCalls: counter(
      'payment_upstream_calls_total',
      'Calls to payment upstreams and chain nodes, by channel, operation and outcome (ok, refused, unreachable).',
      ['channel', 'operation', 'outcome'],
    ),
    upstreamDuration: histogram(
      'payment_upstream_call_duration_seconds',
      'Time of a call to a payment upstream or chain node, by channel and operation.',
      ['channel', 'operation'],
      LATENCY_BUCKETS,
    ),
    mail: counter('payment_mail_total', 'E-mails the service sent (team invitations), by kind and outcome (sent, failed).', ['kind', 'outcome']),
    callbacksReceived: counter(
      'payment_callbacks_received_total',
      'Upstream payment callbacks received over HTTP, by channel.',
      ['channel'],
    ),
    callbacks: counter(
      'payment_callbacks_total',
      'Upstream payment callbacks judged, by channel, outcome (accepted, refused) and reason (the verdict).',
      ['channel', 'outcome', 'reason'],
    ),
    notifications: counter(
      'payment_notifications_total',
      'Merchant notification attempts, by channel and result (delivered, retried: a later attempt is planned, failed: given up).',
      ['channel', 'result'],
    ),
    paidToDelivered: histogram(
      'payment_notification_paid_to_delivered_seconds',
      'From an order being paid to its merchant acknowledging the notification, by channel.',
      ['channel'],
      DELIVERY_BUCKETS,
    ),
    finalToCredited: histogram(
      'payment_chain_final_to_credited_seconds',
      'From a block becoming final (TRON solidified, EVM by the network rule) to the watcher paying the order a transfer in it matches, by network (TRC20, ERC20, BEP20, POLYGON).',
      ['network'],
      CHAIN_LATENCY_BUCKETS,
    ),
    creditedToNotified: histogram(
      'payment_chain_credited_to_notified_seconds',
      'From a chain payment crediting its order to the first notification attempt to the merchant being sent, by network.',
      ['network'],
      CHAIN_LATENCY_BUCKETS,
    ),
    statementBatchSize: histogram(
      'payment_db_statement_batch_size',
      'Requests answered by one database statement of the open API hot path (concurrent USDT inserts or order lookups sent together), by statement.',
      ['statement'],
      [1, 2, 4, 8, 16, 32, 64],
    ),
    statementDuration: histogram(
      'payment_db_statement_duration_seconds',
      'From sending one statement of the open API hot path to its answer or failure, by statement: a slow commit (disk, a busy or distant database) shows here before merchants see it.',
      ['statement'],
      [0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5],
    ),
    jobRuns: counter(
      'payment_job_runs_total',
      'Periodic job runs in this process, by job and outcome (ok, failed).',
      ['job', 'outcome'],
    ),
    jobDuration: histogram(
      'payment_job_run_duration_seconds',
      'Time of a periodic job run in this process, by job.',
      ['job'],
      [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300],
    ),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** The process's metrics (one registry per process, kept across Next.js's module reloads in development). */
export function metrics(): Metrics {
  globalForMetrics.__paymentMetrics ??= createMetrics();
  return globalForMetrics.__paymentMetrics;
}

/** Seconds since a `process.hrtime.bigint()` reading. */
export function secondsSince(startedAt: bigint): number {
  return Number(process.hrtime.bigint() - startedAt) / 1e9;
}

/** How an upstream call ended: answered as wanted, refused (an error answer), or not answered at all. */
export type UpstreamOutcome = 'ok' | 'refused' | 'unreachable';

/** Unreachable: the error says so (`unreachable: true`), or the call was aborted or timed out. */
function outcomeOfFailure(error: unknown): UpstreamOutcome {
  if (error && typeof error === 'object') {
    if ((error as { unreachable?: unknown }).unreachable === true) return 'unreachable';
    const name = (error as { name?: unknown }).name;
    if (name === 'TimeoutError' || name === 'AbortError') return 'unreachable';
  }
  return 'refused';
}

/**
 * Runs one call to an upstream (a payment provider, a chain node) and counts it by channel, operation and outcome
 * with its duration. `operation` is a fixed name (create, query, close, rpc…), never a path or URL.
 */
export async function measureUpstreamCall<T>(channel: string, operation: string, call: () => Promise<T>, classify: (error: unknown) => UpstreamOutcome = outcomeOfFailure): Promise<T> {
  const startedAt = process.hrtime.bigint();
  const { upstreamCalls, upstreamDuration } = metrics();
  try {
    const result = await call();
    upstreamCalls.inc({ channel, operation, outcome: 'ok' });
    logUpstreamCall({ channel, operation, outcome: 'ok', startedAt });
    return result;
  } catch (error) {
    const outcome = classify(error);
    upstreamCalls.inc({ channel, operation, outcome });
    logUpstreamCall({ channel, operation, outcome, startedAt, error });
    throw error;
  } finally {
    upstreamDuration.observe({ channel, operation }, secondsSince(startedAt));
  }
}

function logUpstreamCall(call: { channel: string; operation: string; outcome: UpstreamOutcome; startedAt: bigint; error?: unknown }): void {
  const line = { component: 'upstream', channel: call.channel, operation: call.operation, outcome: call.outcome, ms: Math.round(secondsSince(call.startedAt) * 1000) };
  if (call.outcome !== 'ok') log().warn({ ...line, failure: call.error instanceof Error ? call.error.message : String(call.error) }, `upstream ${call.channel} ${call.operation}: ${call.outcome}`);
  // A success is debug: polls and chain reads come every few seconds, and an order's create is in its own 'order created' line.
  else log().debug(line, `upstream ${call.channel} ${call.operation}: ok`);
}

/** An order's lifecycle event, counted by channel (orders.channel holds one of the channel names). */
export function countOrderEvent(channel: string, event: 'created' | 'paid' | 'closed' | 'expired', count = 1): void {
  if (count > 0) metrics().orders.inc({ channel: channelLabel(channel), event }, count);
}

/** What the service made of a callback: a payment (or a repeat of one, or nothing to do) is accepted; the rest refused. */
const ACCEPTED_VERDICTS = new Set(['paid', 'duplicate', 'ignored', 'late_payment']);

/** A callback judged: `verdict` is one of the fixed verdicts (lib/channels/upstream-callbacks.ts). */
export function countCallback(channel: string, verdict: string): void {
  metrics().callbacks.inc({ channel: channelLabel(channel), outcome: ACCEPTED_VERDICTS.has(verdict) ? 'accepted' : 'refused', reason: verdict });
}

/** A notification attempt recorded: delivered (with the time from paid to delivered), retried later, or given up. */
export function countNotificationAttempt(order: { channel: string; paidAt: Date | null }, result: 'delivered' | 'retried' | 'failed', at: Date): void {
  const channel = channelLabel(order.channel);
  const { notifications, paidToDelivered } = metrics();
  notifications.inc({ channel, result });
  if (result === 'delivered' && order.paidAt) paidToDelivered.observe({ channel }, Math.max(0, (at.getTime() - order.paidAt.getTime()) / 1000));
}

/** The open API's chainType values as the chain metrics label their network. */
const CHAIN_NETWORKS: Record<string, string> = { '1': 'TRC20', '2': 'ERC20', '3': 'BEP20', '4': 'POLYGON' };

/** Credited → notified: from a chain payment's notice being queued (as its order was credited) to its first attempt. */
export function observeCreditedToNotified(chainType: string | null, queuedAt: Date, sentAt: Date): void {
  const network = (chainType && CHAIN_NETWORKS[chainType]) ?? 'unknown';
  metrics().creditedToNotified.observe({ network }, Math.max(0, (sentAt.getTime() - queuedAt.getTime()) / 1000));
}
