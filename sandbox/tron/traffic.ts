import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '../../lib/db/client';
import { base58OfTronAccount } from './base58';
import { BLOCK_INTERVAL_MS } from './ledger';

/**
 * Mainnet-like background traffic on the sandbox chain: USDT transfers between addresses that are not ours, about
 * `perSecond` of them (USDT on TRON carries some 2–3 million a day, about 30 a second), `perSecond × 3` in every 3 s
 * block, each block stamped with its slot's time. A share of the blocks (`lateShare`) reaches the node late, up to
 * `maxLateMs` after its time, as TronGrid's nodes behind a load balancer sometimes have a block a while after the
 * others. The rows go in with one statement, so an hour (108,000 transfers at 30/s) takes a second or two.
 */
export interface TrafficPlan {
  fromMs: number;
  toMs: number;
  perSecond: number;
  lateShare?: number;
  maxLateMs?: number;
  /** Different seeds give different addresses, amounts and late blocks; the same seed the same traffic. */
  seed?: string;
}

const STRANGERS = 512;

function strangers(seed: string): string[] {
  return Array.from({ length: STRANGERS }, (_, index) => base58OfTronAccount(createHash('sha256').update(`${seed}:${index}`).digest().subarray(0, 20)));
}

/** Inserts the plan's transfers; returns how many and the blocks they span. */
export async function generateBackgroundTraffic(db: Database, plan: TrafficPlan): Promise<{ transfers: number; fromBlock: number; toBlock: number; lateBlocks: number }> {
  const seed = plan.seed ?? 'traffic';
  const perBlock = Math.round((plan.perSecond * BLOCK_INTERVAL_MS) / 1000);
  const fromBlock = Math.ceil(plan.fromMs / BLOCK_INTERVAL_MS);
  const toBlock = Math.floor(plan.toMs / BLOCK_INTERVAL_MS);
  const lateShare = Math.round((plan.lateShare ?? 0) * 1000);
  const maxLateMs = Math.max(1, plan.maxLateMs ?? 60_000);
  const addresses = sql.raw(`ARRAY['${strangers(seed).join("','")}']::text[]`);
  if (perBlock === 0 || toBlock < fromBlock) return { transfers: 0, fromBlock, toBlock, lateBlocks: 0 };
  // A block is late when its hash says so: every transfer of that block is indexed at the same later time.
  const { rows } = await db.execute<{ transfers: number; late: number }>(sql`
    WITH blocks AS (
      SELECT b, ('x' || substr(md5(${seed} || ':' || b), 1, 8))::bit(32)::bigint AS h FROM generate_series(${fromBlock}::bigint, ${toBlock}::bigint) AS b
    ), inserted AS (
      INSERT INTO sandbox_tron_transfers (transaction_id, block_number, block_timestamp_ms, from_address, to_address, value_raw, indexed_at_ms)
      SELECT md5(${seed} || ':' || b || ':' || i) || md5(b || ':' || i || ${seed}), b, b * ${BLOCK_INTERVAL_MS},
             (${addresses})[1 + ((h + i) % ${STRANGERS})], (${addresses})[1 + ((h + 7 * i + 1) % ${STRANGERS})],
             1000 + ((h * (i + 1)) % 5000000000),
             b * ${BLOCK_INTERVAL_MS} + CASE WHEN h % 1000 < ${lateShare} THEN 1 + (h / 1000) % ${maxLateMs} ELSE 0 END
      FROM blocks, generate_series(1, ${perBlock}) AS i
      ON CONFLICT (transaction_id) DO NOTHING
      RETURNING 1
    )
    SELECT (SELECT count(*)::int FROM inserted) AS transfers, (SELECT count(*)::int FROM blocks WHERE h % 1000 < ${lateShare}) AS late`);
  return { transfers: rows[0]!.transfers, fromBlock, toBlock, lateBlocks: rows[0]!.late };
}
