import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '../../lib/db/client';
import { isTronAddress, tronAddressFromAccountBytes, tronAddressToEventHex } from '../../lib/channels/usdt/tron/address';
import { sandboxNowMs } from './sandbox-clock';

/**
 * The sandbox chain: a ledger of simulated USDT TRC20 transfers in 3-second blocks. A block is solidified (final,
 * `/walletsolidity/getnowblock`) after SANDBOX_TRON_CONFIRM_MS (3 s here; about a minute on mainnet). The indexer
 * behind `/v1/…/events` is less careful, as the service must assume TronGrid's may be: with only_confirmed=true it
 * lists a transfer once its block has a successor, which can be before the block is solidified. A transfer can also
 * be indexed late (`indexDelayMs`): it appears in the listing only that long after its block time.
 */
export const BLOCK_INTERVAL_MS = 3000;
export const SANDBOX_PAYER = tronAddressFromAccountBytes(Buffer.alloc(20, 0x11));

export function confirmationDelayMs(): number {
  return Number(process.env.SANDBOX_TRON_CONFIRM_MS ?? 3000);
}

/** How old a block must be for the indexer to call its events confirmed: one block, or less when solidity is quicker. */
export function indexerConfirmationMs(): number {
  return Math.min(BLOCK_INTERVAL_MS, confirmationDelayMs());
}

const MAX_INDEX_DELAY_MS = 24 * 60 * 60 * 1000;

export class SandboxTransferRefused extends Error {}

const USDT_6DP = /^(0|[1-9]\d{0,11})(\.\d{1,6})?$/;

export function usdtToRaw(amount: string): bigint {
  if (!USDT_6DP.test(amount)) throw new SandboxTransferRefused('amount must be a USDT quantity with at most 6 decimals');
  const [whole, fraction = ''] = amount.split('.');
  const raw = BigInt(whole!) * 1_000_000n + BigInt(fraction.padEnd(6, '0'));
  if (raw <= 0n) throw new SandboxTransferRefused('amount must be greater than 0');
  return raw;
}

export interface SandboxTransfer {
  transactionId: string;
  blockNumber: number;
  blockTimestampMs: number;
  from: string;
  to: string;
  valueRaw: string;
}

/** Puts a transfer in the block being produced at `nowMs`; the indexer lists it `indexDelayMs` after that (0 by default). */
export async function sendSandboxTransfer(
  db: Database,
  input: { to: string; amount: string; from?: string; indexDelayMs?: number },
  nowMs = sandboxNowMs(),
): Promise<SandboxTransfer> {
  if (!isTronAddress(input.to)) throw new SandboxTransferRefused(`to is not a valid TRON address: ${input.to}`);
  const from = input.from ?? SANDBOX_PAYER;
  if (!isTronAddress(from)) throw new SandboxTransferRefused(`from is not a valid TRON address: ${from}`);
  const indexDelayMs = input.indexDelayMs ?? 0;
  if (!Number.isInteger(indexDelayMs) || indexDelayMs < 0 || indexDelayMs > MAX_INDEX_DELAY_MS) {
    throw new SandboxTransferRefused(`indexDelayMs must be a whole number of milliseconds from 0 to ${MAX_INDEX_DELAY_MS}`);
  }
  const transfer: SandboxTransfer = {
    transactionId: randomBytes(32).toString('hex'),
    blockNumber: Math.floor(nowMs / BLOCK_INTERVAL_MS),
    blockTimestampMs: nowMs,
    from,
    to: input.to,
    valueRaw: usdtToRaw(input.amount).toString(),
  };
  await db.execute(sql`
    INSERT INTO sandbox_tron_transfers (transaction_id, block_number, block_timestamp_ms, from_address, to_address, value_raw, indexed_at_ms)
    VALUES (${transfer.transactionId}, ${transfer.blockNumber}, ${transfer.blockTimestampMs}, ${transfer.from}, ${transfer.to}, ${transfer.valueRaw},
            ${nowMs + indexDelayMs})`);
  return transfer;
}

/** A listing request the indexer refuses (answered 400). */
export class SandboxQueryRefused extends Error {}

/** Where the next page starts, and which node issued it: a node's fingerprint means nothing to another node. */
interface Fingerprint {
  ts: number;
  id: number;
  node: string;
}

function encodeFingerprint(fingerprint: Fingerprint): string {
  return Buffer.from(JSON.stringify(fingerprint)).toString('base64url');
}

function decodeFingerprint(text: string | null, node: string): Fingerprint | undefined {
  if (!text) return undefined;
  let parsed: Fingerprint | undefined;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Fingerprint;
  } catch {
    parsed = undefined;
  }
  if (!parsed || !Number.isFinite(parsed.ts) || !Number.isFinite(parsed.id) || parsed.node !== node) throw new SandboxQueryRefused('invalid fingerprint');
  return parsed;
}

/**
 * TronGrid's `/v1/contracts/{contract}/events` over the ledger: Transfer events the indexer has indexed, oldest
 * first, paged by fingerprint, between min_block_timestamp and max_block_timestamp.
 */
export async function contractEvents(db: Database, query: URLSearchParams, nowMs = sandboxNowMs(), node = 'default') {
  const limit = Math.min(Math.max(Number(query.get('limit') ?? 20), 1), 200);
  const minTs = Number(query.get('min_block_timestamp') ?? 0);
  const maxTs = Number(query.get('max_block_timestamp') ?? Number.MAX_SAFE_INTEGER);
  const onlyConfirmed = query.get('only_confirmed') === 'true';
  const after = decodeFingerprint(query.get('fingerprint'), node);
  const confirmedBefore = Math.min(maxTs, onlyConfirmed ? nowMs - indexerConfirmationMs() : Number.MAX_SAFE_INTEGER);
  const { rows } = await db.execute<{ id: string; transaction_id: string; block_number: string; block_timestamp_ms: string; from_address: string; to_address: string; value_raw: string }>(sql`
    SELECT id, transaction_id, block_number, block_timestamp_ms, from_address, to_address, value_raw::text AS value_raw
    FROM sandbox_tron_transfers
    WHERE block_timestamp_ms >= ${minTs} AND block_timestamp_ms <= ${confirmedBefore} AND coalesce(indexed_at_ms, block_timestamp_ms) <= ${nowMs}
      AND (block_timestamp_ms, id) > (${after?.ts ?? -1}::bigint, ${after?.id ?? 0}::bigint)
    ORDER BY block_timestamp_ms, id
    LIMIT ${limit + 1}`);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const more = rows.length > limit && last !== undefined;
  return {
    success: true,
    data: page.map((row) => ({
      block_number: Number(row.block_number),
      block_timestamp: Number(row.block_timestamp_ms),
      caller_contract_address: query.get('contract') ?? '',
      contract_address: query.get('contract') ?? '',
      event_index: 0,
      event_name: 'Transfer',
      result: { from: tronAddressToEventHex(row.from_address), to: tronAddressToEventHex(row.to_address), value: row.value_raw },
      result_type: { from: 'address', to: 'address', value: 'uint256' },
      event: 'Transfer(address indexed from, address indexed to, uint256 value)',
      transaction_id: row.transaction_id,
    })),
    meta: {
      at: nowMs,
      page_size: page.length,
      ...(more ? { fingerprint: encodeFingerprint({ ts: Number(last.block_timestamp_ms), id: Number(last.id), node }) } : {}),
    },
  };
}

export async function recentSandboxTransfers(db: Database, limit = 20, nowMs = Date.now()) {
  const { rows } = await db.execute<{ transaction_id: string; block_timestamp_ms: string; to_address: string; value_raw: string }>(sql`
    SELECT transaction_id, block_timestamp_ms, to_address, value_raw::text AS value_raw FROM sandbox_tron_transfers ORDER BY id DESC LIMIT ${limit}`);
  return rows.map((row) => ({
    transactionId: row.transaction_id,
    blockTimestampMs: Number(row.block_timestamp_ms),
    to: row.to_address,
    valueRaw: row.value_raw,
    confirmed: nowMs - Number(row.block_timestamp_ms) >= confirmationDelayMs(),
  }));
}
