import { eq } from 'drizzle-orm';
import pg from 'pg';
import { getDb, type Database } from '../lib/db/client';
import { orders } from '../lib/db/schema';
import { NOTIFICATION_CHANNEL } from '../lib/notifications/enqueue';
import { markOrderPaid } from '../lib/orders/order-status';
import { contractSignature } from './beds/contract-signer';
import type { FailoverBed } from './failover-bed';

const SUBMIT = '/v1/api/open/order/submit';
/** Each submit and each credit gives up after this: a request hung on a dead host must not hold the drill. */
const REQUEST_TIMEOUT_MS = 10_000;

export interface Answer {
  status: number;
  code: number | undefined;
  retryAfter: string | null;
  at: number;
  merchantOrderNo: string;
  failure?: string;
}

/** What the load saw: every submit's answer, the orders whose payment was credited (the commit answered), and when. */
export interface FailoverRun {
  submitters: number;
  answers: Answer[];
  credited: string[];
  creditFailures: number;
  killedAt: number;
  promotedAt: number;
  /** How long after the promotion the worker's LISTEN session was seen on the new primary. */
  listeningAfterMs: number;
}

export interface LoadSettings {
  submitters: number;
  /** Load before the kill, and after the promotion. */
  beforeKillMs: number;
  afterPromotionMs: number;
  /** As long as a failover manager takes to decide: the URL's hosts are a dead one and a standby meanwhile. */
  killToPromoteMs: number;
}

/** How long after `since` the worker's LISTEN session was seen on the promoted standby (polled for 10 s at most). */
async function listenerOnNewPrimary(port: number, since: number): Promise<number> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres', connectionTimeoutMillis: 2_000, query_timeout: 2_000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    for (const deadline = since + 10_000; Date.now() < deadline; await sleep(50)) {
      const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE query = $1`, [`LISTEN ${NOTIFICATION_CHANNEL}`]);
      if (rows[0]!.n > 0) return Date.now() - since;
    }
    return Number.POSITIVE_INFINITY;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Well under the probe's work (3 s) minus the switch (1 s to promote, then the successor's first tick). */
const JUST_STARTED_MS = 300;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function submit(bed: FailoverBed, merchantOrderNo: string, amount: string): Promise<Answer> {
  const fields = { appId: bed.merchant.appId, merchantOrderNo, chainType: '1', pay_usdt: amount, productName: 'VIP', notifyUrl: bed.receiver.notifyUrl };
  try {
    const response = await fetch(`${bed.app.baseUrl}${SUBMIT}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...fields, signature: contractSignature(fields, bed.merchant.appSecret) }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const json = (await response.json().catch(() => ({}))) as { code?: number };
    return { status: response.status, code: json.code, retryAfter: response.headers.get('retry-after'), at: Date.now(), merchantOrderNo };
  } catch (error) {
    return { status: 0, code: undefined, retryAfter: null, at: Date.now(), merchantOrderNo, failure: String(error) };
  }
}

/** The chain watcher's credit of an order, in one transaction with its notification (markOrderPaid queues it). */
async function credit(merchantOrderNo: string): Promise<void> {
  await getDb().transaction(async (transaction) => {
    const tx = transaction as unknown as Database;
    const [order] = await tx.select({ id: orders.id }).from(orders).where(eq(orders.merchantOrderNo, merchantOrderNo)).limit(1);
    if (!order) throw new Error(`order ${merchantOrderNo} not found`);
    await markOrderPaid(tx, { orderId: order.id, via: 'chain', paidAt: new Date(), tradeNo: `tx-${merchantOrderNo}` });
  });
}

/**
 * The switch under load: `submitters` submit orders without pause while a payer credits every other acknowledged
 * order (its merchant notification queued in the same commit) and the bed's worker delivers them; after
 * `beforeKillMs` (and just after a run of the probe job began) the primary is killed -9, after `killToPromoteMs` the standby promoted, and the load goes on for
 * `afterPromotionMs`. A credit that failed during the switch is tried again, as a chain watcher would on its next run.
 */
export async function runFailoverLoad(bed: FailoverBed, settings: LoadSettings): Promise<FailoverRun> {
  const run: FailoverRun = { submitters: settings.submitters, answers: [], credited: [], creditFailures: 0, killedAt: 0, promotedAt: 0, listeningAfterMs: Number.POSITIVE_INFINITY };
  let listening: Promise<number> = Promise.resolve(Number.POSITIVE_INFINITY);
  let stopAt = Number.POSITIVE_INFINITY;
  let counter = 0;
  const toCredit: string[] = [];
  const submitters = Array.from({ length: settings.submitters }, async () => {
    while (Date.now() < stopAt) {
      counter += 1;
      // Each its own amount: no order waits for a free amount slot.
      const answer = await submit(bed, `FAILOVER-${counter}-${Date.now()}`, (1 + counter / 100).toFixed(2));
      run.answers.push(answer);
      if (answer.code === 0 && counter % 2 === 0) toCredit.push(answer.merchantOrderNo);
    }
  });
  const payer = (async () => {
    while (Date.now() < stopAt || toCredit.length > 0) {
      const next = toCredit.shift();
      if (next === undefined) {
        await sleep(20);
        continue;
      }
      try {
        await Promise.race([credit(next), sleep(REQUEST_TIMEOUT_MS).then(() => Promise.reject(new Error('credit timed out')))]);
        run.credited.push(next);
      } catch {
        run.creditFailures += 1;
        if (Date.now() < stopAt + 5_000) toCredit.push(next);
        await sleep(50);
      }
    }
  })();
  const faults = (async () => {
    await sleep(settings.beforeKillMs);
    // Killed just after a run of the probe job began its work under the lock, so that the run would still be working when its successor
    // takes the lock on the new primary unless the lost lock stops it: the case that could run twice.
    const justStarted = () => bed.jobRuns.some((jobRun) => jobRun.endedAt === Number.POSITIVE_INFINITY && jobRun.workingSince !== undefined && Date.now() - jobRun.workingSince < JUST_STARTED_MS);
    for (const deadline = Date.now() + 10_000; Date.now() < deadline && !justStarted(); ) await sleep(10);
    bed.pair.killPrimary();
    run.killedAt = Date.now();
    await sleep(settings.killToPromoteMs);
    await bed.pair.promoteStandby();
    run.promotedAt = Date.now();
    listening = listenerOnNewPrimary(bed.pair.standbyPort, run.promotedAt); // watched while the load goes on
    stopAt = run.promotedAt + settings.afterPromotionMs;
  })();
  await Promise.all([faults, payer, ...submitters]);
  run.listeningAfterMs = await listening;
  return run;
}
