/**
 * npm run bench:reconcile:evm — one ERC20 day of BENCH_RECONCILE_EVM_TRANSFERS (10,000) USDT transfers to the pool's
 * 1,000 receiving addresses (blocks of 1,000 Transfer events, on a real sandbox node, ganache, over JSON-RPC with its
 * provider caps) reconciled: the day's blocks found by block time, its logs read with our addresses as topic, staged
 * and matched. The watcher had recorded all but PLANTED of them, which are found. Prints the time and the peak RSS.
 * Uses DATABASE_URL's server when set, else the embedded server; works in a scratch database.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { getAddress, type Address } from 'viem';
import { createDatabase } from '../lib/db/client';
import { resolveDatabase } from '../lib/db/connect';
import { applyMigrations } from '../lib/db/migrate';
import { usdtReconciliation } from '../lib/channels/usdt/usdt-reconciliation';
import { beijingDayBounds } from '../lib/reconciliation/beijing-day';
import { reconcileScope } from '../lib/reconciliation/reconcile-scope';
import { startSandboxEvmNode } from '../sandbox/evm/evm-node';
import { createBenchDatabase, dropBenchDatabase } from './fixtures';

const TRANSFERS = Number(process.env.BENCH_RECONCILE_EVM_TRANSFERS ?? 10_000);
const PER_BLOCK = 1_000;
const POOL = 1_000;
const PLANTED = 10;
const DAY = '2026-03-02';

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const { start, end } = beijingDayBounds(DAY)!;

const target = await resolveDatabase({ migrate: false });
const serverUrl = target.embedded?.serverUrl ?? target.url;
const databaseName = `bench_reconcile_evm_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
const databaseUrl = await createBenchDatabase(serverUrl, databaseName);
const db = createDatabase(databaseUrl, 4);
const node = await startSandboxEvmNode({ chain: 'ERC20', port: 0, startTime: new Date(start.getTime() + 3600_000) });
Object.assign(process.env, { USDT_EVM_CHAINS: 'ERC20', EVM_ERC20_RPC_URLS: node.rpcUrl, EVM_ERC20_CHAIN_ID: String(node.chainId), EVM_ERC20_TOKEN_CONTRACT: node.token });
try {
  await applyMigrations(databaseUrl);
  const pool: Address[] = Array.from({ length: POOL }, () => getAddress(`0x${randomBytes(20).toString('hex')}`));
  const { rows: ids } = await db.execute<{ id: string; address: string }>(sql`
    INSERT INTO receiving_addresses (chain, address) SELECT 'ERC20', unnest(${sql.raw(`ARRAY['${pool.join("','")}']`)}::text[]) RETURNING id, address`);
  const idOf = new Map(ids.map((row) => [row.address, Number(row.id)]));
  console.error(`bench:reconcile:evm: mining ${TRANSFERS} transfers in blocks of ${PER_BLOCK}…`);
  for (let sent = 0; sent < TRANSFERS; sent += PER_BLOCK) {
    const recipients = Array.from({ length: Math.min(PER_BLOCK, TRANSFERS - sent) }, (_, index) => pool[(sent + index) % POOL]!);
    const { transactionHash, blockNumber } = await node.transferMany(recipients, 1_000_000n);
    // What the watcher recorded of them: all but PLANTED of the first block.
    const seen = recipients.flatMap((to, logIndex) => (sent === 0 && logIndex < PLANTED ? [] : [{ to, logIndex }]));
    await db.execute(sql`
      INSERT INTO chain_transfers (chain, transaction_id, event_index, block_number, block_time, from_address, to_address, receiving_address_id, value_raw, verdict)
      SELECT 'ERC20', ${transactionHash}, s.log_index, ${Number(blockNumber)}, ${new Date(start.getTime() + 3600_000)}, ${node.payer}, s.to_address, s.address_id, 1000000, 'no_order'
      FROM unnest(${sql.raw(`ARRAY[${seen.map((entry) => entry.logIndex).join(',')}]`)}::int[], ${sql.raw(`ARRAY['${seen.map((entry) => entry.to).join("','")}']`)}::text[],
                  ${sql.raw(`ARRAY[${seen.map((entry) => idOf.get(entry.to)).join(',')}]`)}::bigint[]) AS s(log_index, to_address, address_id)`);
  }
  await node.setTime(new Date(end.getTime() + 3600_000));
  await node.mine(1);
  await db.execute(sql`ANALYZE`);
  const scope = (await usdtReconciliation.scopes(db)).find((candidate) => candidate.key === 'chain:ERC20')!;
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const outcome = await reconcileScope(db, { day: DAY, channel: 'USDT', source: usdtReconciliation, scope, now: () => new Date(), signal: new AbortController().signal });
  const seconds = (performance.now() - started) / 1000;
  const { rows } = await db.execute<{ kind: string; count: number }>(sql`SELECT kind, count(*)::int AS count FROM reconciliation_findings GROUP BY kind ORDER BY kind`);
  console.log(`\nreconciliation of one ERC20 day: ${TRANSFERS} transfers to ${POOL} receiving addresses in ${Math.ceil(TRANSFERS / PER_BLOCK)} blocks (eth_getLogs over HTTP), PostgreSQL ${target.embedded ? 'embedded' : 'server'}`);
  console.log(`status ${outcome.status}${outcome.detail ? ` (${outcome.detail})` : ''}; upstream ${outcome.totals?.upstreamCount} transfers`);
  console.log(`findings: ${rows.map((row) => `${row.kind} ${row.count}`).join(', ') || 'none'} (planted: ${PLANTED} transfers the watcher missed, paying no order)`);
  console.log(`time: ${seconds.toFixed(1)} s (${Math.round(TRANSFERS / seconds)} transfers/s)`);
  console.log(`RSS: ${megabytes(rssBefore)} before the run; peak RSS of the process ${megabytes(process.resourceUsage().maxRSS * 1024)} (the node runs in this process too)`);
} finally {
  await node.close();
  await db.$client.end();
  await dropBenchDatabase(serverUrl, databaseName);
  if (target.embedded?.startedHere) await target.embedded.stop();
}
