import { sql } from 'drizzle-orm';
import { Counter, Gauge, type Registry } from 'prom-client';
import { databaseConnectionsOpened, type Database } from '../db/client';
import { replicaStanding } from '../db/read-db';
import { chainWatcherHealth } from '../operator/health';
import { chainEndpointHealth } from '../operator/chain-endpoint-health';
import { metrics } from '../observability/metrics';

/** A scrape waits at most this long for the database's figures; past it they are left out and `…_database_up` is 0. */
export const SCRAPE_DEADLINE_MS = 2_000;
/** The chain the TronGrid watcher reads (its health lives in the database, shared by every process). */
const TRON_CHAIN = 'TRC20';

interface DatabaseFigures {
  dueNow: number;
  oldestDueAgeSeconds: number;
  openCircuits: number;
  tronLagSeconds: number | null;
  tronEndpoints: Record<string, number>;
}

/** Three bounded reads: the queue's due rows, the open circuits, the TronGrid watcher's cursor and endpoints. */
async function readDatabaseFigures(db: Database): Promise<DatabaseFigures> {
  const now = new Date();
  const [queue, circuits, chain, endpoints] = await Promise.all([
    db.execute<{ due: number; oldest_age: number | null }>(sql`
      SELECT count(*)::int AS due, extract(epoch FROM (${now}::timestamptz - min(next_attempt_at)))::float8 AS oldest_age
      FROM notifications WHERE status = 'pending' AND next_attempt_at <= ${now}`),
    db.execute<{ open: number }>(sql`SELECT count(*)::int AS open FROM notification_destinations WHERE open_until > ${now}`),
    chainWatcherHealth(db, now),
    chainEndpointHealth(db, now),
  ]);
  const tronEndpoints: Record<string, number> = { ok: 0, failing: 0, blocked: 0, unused: 0 };
  for (const endpoint of endpoints) tronEndpoints[endpoint.status] = (tronEndpoints[endpoint.status] ?? 0) + 1;
  return {
    dueNow: Number(queue.rows[0]?.due ?? 0),
    oldestDueAgeSeconds: Math.max(0, Number(queue.rows[0]?.oldest_age ?? 0)),
    openCircuits: Number(circuits.rows[0]?.open ?? 0),
    tronLagSeconds: chain.lagMs === null ? null : chain.lagMs / 1000,
    tronEndpoints: endpoints.length > 0 ? tronEndpoints : {},
  };
}

function withinDeadline<T>(work: Promise<T>, deadlineMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`database figures not read within ${deadlineMs} ms`)), deadlineMs);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

/**
 * Registers the gauges read when Prometheus scrapes: the notification queue's due count and oldest due age,
 * destinations whose circuit is open, the chain watchers' lag and endpoints, the database pool. Every gauge of one
 * scrape shares one read of the database, bounded by SCRAPE_DEADLINE_MS: a database outage makes the scrape answer
 * `payment_metrics_database_up 0` (an alert of its own) instead of hanging.
 */
export function registerScrapeGauges(registry: Registry, db: () => Database): void {
  let inFlight: Promise<DatabaseFigures | undefined> | undefined;
  /** One read per scrape: a scrape starts every gauge's collect at once, and they share the read in flight. */
  const figures = () => {
    inFlight ??= withinDeadline(readDatabaseFigures(db()), SCRAPE_DEADLINE_MS)
      .catch(() => undefined)
      .finally(() => (inFlight = undefined));
    return inFlight;
  };
  const registers = [registry];

  new Gauge({
    name: 'payment_metrics_database_up',
    help: '1 when this scrape could read the database figures (queue, circuits, chain) within its deadline, else 0.',
    registers,
    async collect() {
      this.set((await figures()) ? 1 : 0);
    },
  });
  new Gauge({
    name: 'payment_notifications_due',
    help: 'Notifications due for an attempt now (pending, their next attempt time passed).',
    registers,
    async collect() {
      const read = await figures();
      if (read) this.set(read.dueNow);
    },
  });
  new Gauge({
    name: 'payment_notifications_oldest_due_age_seconds',
    help: 'How long the oldest due notification has been waiting for its attempt (0: none due).',
    registers,
    async collect() {
      const read = await figures();
      if (read) this.set(read.oldestDueAgeSeconds);
    },
  });
  new Gauge({
    name: 'payment_notification_destinations_open_circuit',
    help: 'Merchant notification destinations whose circuit is open (no attempt sent until it closes).',
    registers,
    async collect() {
      const read = await figures();
      if (read) this.set(read.openCircuits);
    },
  });
  new Gauge({
    name: 'payment_chain_watcher_lag_seconds',
    help: 'How far behind now the TRC20 watcher has read through the final (solidified) blocks, by chain.',
    labelNames: ['chain'] as const,
    registers,
    async collect() {
      this.reset();
      const read = await figures();
      if (read?.tronLagSeconds !== null && read?.tronLagSeconds !== undefined) this.set({ chain: TRON_CHAIN }, read.tronLagSeconds);
    },
  });
  new Gauge({
    name: 'payment_chain_watcher_lag_blocks',
    help: "Blocks between the last final block and an EVM watcher's cursor after its last pass in this process, by chain.",
    labelNames: ['chain'] as const,
    registers,
    collect() {
      this.reset();
      for (const [chain, state] of metrics().evmWatch) if (state.lagBlocks !== undefined) this.set({ chain }, state.lagBlocks);
    },
  });
  new Gauge({
    name: 'payment_chain_endpoints',
    help: 'Chain endpoints by chain and state (ok, failing, blocked: rate-limited, unused: not asked yet).',
    labelNames: ['chain', 'state'] as const,
    registers,
    async collect() {
      this.reset();
      for (const [chain, state] of metrics().evmWatch) for (const [name, count] of Object.entries(state.endpoints)) this.set({ chain, state: name }, count);
      const read = await figures();
      for (const [name, count] of Object.entries(read?.tronEndpoints ?? {})) this.set({ chain: TRON_CHAIN, state: name }, count);
    },
  });
  new Gauge({
    name: 'payment_db_pool_connections',
    help: "This process's database pool: connections in use, idle, and requests waiting for one.",
    labelNames: ['state'] as const,
    registers,
    collect() {
      const pool = db().$client;
      this.set({ state: 'in_use' }, pool.totalCount - pool.idleCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
  // The replica (DATABASE_REPLICA_URL): measured within its own deadline (lib/db/read-db.ts), absent without one.
  new Gauge({
    name: 'payment_database_replica_lag_seconds',
    help: "How far behind the primary the back office's replica is (0 when it has replayed all the primary's WAL); absent when unmeasured or without a replica.",
    registers,
    async collect() {
      this.reset();
      const standing = await replicaStanding();
      if (standing.configured && standing.lagSeconds !== null) this.set(standing.lagSeconds);
    },
  });
  new Gauge({
    name: 'payment_database_replica_reads_primary',
    help: "1 when the back office reads the primary instead of its replica (the replica lags beyond DATABASE_REPLICA_MAX_LAG_SECONDS or did not answer), else 0; absent without a replica.",
    registers,
    async collect() {
      this.reset();
      const standing = await replicaStanding();
      if (standing.configured) this.set(standing.readsReplica ? 0 : 1);
    },
  });
  let openedReported = 0;
  new Counter({
    name: 'payment_db_pool_connections_opened_total',
    help:
      "Connections this process's database pools opened. It grows when traffic outgrows the idle connections and after the " +
      'pool closed some left unused for 10 s; a steady rate under steady traffic means connections are lost and replaced ' +
      '(a network that cuts them, a server that ends sessions).',
    registers,
    collect() {
      const opened = databaseConnectionsOpened();
      this.inc(opened - openedReported);
      openedReported = opened;
    },
  });
}
