import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Database } from '../../lib/db/client';
import { tronHexOfBase58 } from './base58';

/**
 * The full node's block API over the sandbox ledger, as java-tron serves it (GetBlockByLimitNextServlet,
 * GetBlockByNumServlet): `/walletsolidity/getblockbylimitnext` `{startNum, endNum}` lists the solidified blocks in
 * [startNum, endNum); a range that is empty, reversed, or wider than 100 blocks answers `{}`, as does a range the
 * node has no block of yet. Each USDT transfer is a TriggerSmartContract transaction calling `transfer(address,uint256)`
 * (selector a9059cbb) on the contract, `ret[0].contractRet` SUCCESS; the rest of the chain's traffic is plain TRX
 * transfers (TransferContract), `otherTransactionsPerBlock` of them, so a block weighs what a mainnet block does.
 *
 * A node sees blocks in order: a block listed late (a transfer's indexDelayMs) holds the node's head below it until
 * then, so the blocks after it wait too, as on a node that received that block late.
 */
export const BLOCK_LIMIT = 100;
const TRANSFER_SELECTOR = 'a9059cbb';
const USDT_CONTRACT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

const registry = globalThis as typeof globalThis & { __sandboxTronOtherTransactions?: number };

/** How many TRX transfers between strangers each block also carries: SANDBOX_TRON_OTHER_TX_PER_BLOCK, 0 by default. */
export function setOtherTransactionsPerBlock(count: number): void {
  registry.__sandboxTronOtherTransactions = count;
}

function otherTransactionsPerBlock(): number {
  return registry.__sandboxTronOtherTransactions ?? Number(process.env.SANDBOX_TRON_OTHER_TX_PER_BLOCK ?? 0);
}

type LedgerRow = {
  transaction_id: string;
  block_number: string;
  block_timestamp_ms: string;
  from_address: string;
  to_address: string;
  value_raw: string;
};

const word = (hex: string) => hex.padStart(64, '0');
const fakeHash = (text: string) => createHash('sha256').update(text).digest('hex');

function usdtTransaction(row: LedgerRow, contractHex: string) {
  const to = tronHexOfBase58(row.to_address).slice(2);
  return {
    ret: [{ contractRet: 'SUCCESS' }],
    signature: [fakeHash(`sig${row.transaction_id}`).repeat(2).slice(0, 130)],
    txID: row.transaction_id,
    raw_data: {
      contract: [
        {
          parameter: {
            value: { data: `${TRANSFER_SELECTOR}${word(to)}${word(BigInt(row.value_raw).toString(16))}`, owner_address: tronHexOfBase58(row.from_address), contract_address: contractHex },
            type_url: 'type.googleapis.com/protocol.TriggerSmartContract',
          },
          type: 'TriggerSmartContract',
        },
      ],
      ref_block_bytes: row.block_number.slice(-4).padStart(4, '0'),
      ref_block_hash: fakeHash(row.block_number).slice(0, 16),
      expiration: Number(row.block_timestamp_ms) + 60_000,
      fee_limit: 30_000_000,
      timestamp: Number(row.block_timestamp_ms) - 1000,
    },
    raw_data_hex: fakeHash(`raw${row.transaction_id}`),
  };
}

function trxTransaction(blockNumber: number, index: number, timestampMs: number) {
  const seed = fakeHash(`${blockNumber}:${index}`);
  return {
    ret: [{ contractRet: 'SUCCESS' }],
    signature: [seed.repeat(3).slice(0, 130)],
    txID: fakeHash(`tx${seed}`),
    raw_data: {
      contract: [{ parameter: { value: { amount: parseInt(seed.slice(0, 8), 16), owner_address: `41${seed.slice(0, 40)}`, to_address: `41${seed.slice(24, 64)}` }, type_url: 'type.googleapis.com/protocol.TransferContract' }, type: 'TransferContract' }],
      ref_block_bytes: seed.slice(0, 4),
      ref_block_hash: seed.slice(4, 20),
      expiration: timestampMs + 60_000,
      timestamp: timestampMs - 1000,
    },
    raw_data_hex: seed,
  };
}

function blockId(number: number): string {
  return number.toString(16).padStart(16, '0') + fakeHash(`block${number}`).slice(16);
}

/** A block's time: its slot (3 s), or its last transfer's time when a test sent one during the slot. */
function renderBlock(number: number, rows: readonly LedgerRow[], blockIntervalMs: number, contractHex: string) {
  const timestamp = rows.reduce((max, row) => Math.max(max, Number(row.block_timestamp_ms)), number * blockIntervalMs);
  const others = Array.from({ length: otherTransactionsPerBlock() }, (_, index) => trxTransaction(number, index, timestamp));
  const transactions = [...rows.map((row) => usdtTransaction(row, contractHex)), ...others];
  return {
    blockID: blockId(number),
    block_header: {
      raw_data: { number, txTrieRoot: fakeHash(`trie${number}`), witness_address: `41${fakeHash(`w${number % 27}`).slice(0, 40)}`, parentHash: blockId(number - 1), version: 32, timestamp },
      witness_signature: fakeHash(`ws${number}`).repeat(2).slice(0, 130),
    },
    ...(transactions.length > 0 ? { transactions } : {}),
  };
}

/** The newest block this node can serve: the solidified height, held below the first block not indexed yet. */
async function servedHead(db: Database, solidified: number, fromBlock: number, nowMs: number): Promise<number> {
  const { rows } = await db.execute<{ first: string | null }>(sql`
    SELECT min(block_number)::text AS first FROM sandbox_tron_transfers
    WHERE block_number >= ${fromBlock} AND block_number <= ${solidified} AND indexed_at_ms > ${nowMs}`);
  return rows[0]?.first ? Math.min(solidified, Number(rows[0].first) - 1) : solidified;
}

/** `/walletsolidity/getblockbylimitnext`: the answer's JSON (`{}` when there is no block to give). */
export async function blocksByLimitNext(db: Database, input: Record<string, unknown>, solidified: number, nowMs: number, blockIntervalMs: number) {
  const startNum = Number(input.startNum ?? 0);
  const endNum = Number(input.endNum ?? 0);
  if (!Number.isSafeInteger(startNum) || !Number.isSafeInteger(endNum) || !(endNum > 0 && endNum > startNum && endNum - startNum <= BLOCK_LIMIT)) return {};
  const last = Math.min(endNum - 1, await servedHead(db, solidified, startNum, nowMs));
  if (last < startNum) return {};
  const { rows } = await db.execute<LedgerRow>(sql`
    SELECT transaction_id, block_number::text, block_timestamp_ms::text, from_address, to_address, value_raw::text AS value_raw
    FROM sandbox_tron_transfers WHERE block_number >= ${startNum} AND block_number <= ${last} ORDER BY block_number, id`);
  const byBlock = new Map<number, LedgerRow[]>();
  for (const row of rows) {
    const number = Number(row.block_number);
    const list = byBlock.get(number);
    if (list) list.push(row);
    else byBlock.set(number, [row]);
  }
  const contractHex = tronHexOfBase58(USDT_CONTRACT);
  const block = [];
  for (let number = startNum; number <= last; number += 1) block.push(renderBlock(number, byBlock.get(number) ?? [], blockIntervalMs, contractHex));
  return { block };
}
