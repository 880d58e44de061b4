/**
 * Solidified TRON blocks as `/walletsolidity/getblockbylimitnext` prints them (java-tron's BlockList; `{}` when the
 * range holds no block the node has), and the USDT transfers in them: a successful (`ret[0].contractRet` SUCCESS)
 * TriggerSmartContract call on the token contract to `transfer(address,uint256)` (selector a9059cbb: the payer is the
 * caller) or `transferFrom(address,address,uint256)` (23b872dd: the payer is the first argument). ABI arguments are
 * 32-byte words; an address word holds the 20 account bytes, which TRON prefixes with 0x41.
 */
export interface TronBlock {
  number: number;
  timestampMs: number;
  blockId: string;
  parentHash: string;
  transfers: TronBlockTransfer[];
  /** Transactions in the block, USDT or not: the decoding cost follows them. */
  transactionCount: number;
}

export interface TronBlockTransfer {
  transactionId: string;
  /** 41-prefixed lower-case hex, as the block prints addresses without `visible`. */
  fromHex: string;
  toHex: string;
  value: bigint;
}

const TRANSFER = 'a9059cbb';
const TRANSFER_FROM = '23b872dd';

/** The answer is not a block list: the endpoint is treated as failing, never as "no new block". */
export class UnusableBlockList extends Error {}

interface RawContract {
  type?: unknown;
  parameter?: { value?: { data?: unknown; owner_address?: unknown; contract_address?: unknown } };
}

interface RawTransaction {
  txID?: unknown;
  ret?: { contractRet?: unknown }[];
  raw_data?: { contract?: RawContract[] };
}

const addressWord = (word: string) => (/^0{24}[0-9a-f]{40}$/.test(word) ? `41${word.slice(24)}` : undefined);

function decodeTransfer(transaction: RawTransaction, contractHex: string): TronBlockTransfer | undefined {
  const contract = transaction.raw_data?.contract?.[0];
  if (contract?.type !== 'TriggerSmartContract' || transaction.ret?.[0]?.contractRet !== 'SUCCESS') return undefined;
  const value = contract.parameter?.value;
  if (typeof value?.contract_address !== 'string' || value.contract_address.toLowerCase() !== contractHex) return undefined;
  if (typeof value.data !== 'string' || typeof value.owner_address !== 'string' || typeof transaction.txID !== 'string') return undefined;
  const data = value.data.toLowerCase();
  const selector = data.slice(0, 8);
  const words = data.slice(8).match(/.{64}/g) ?? [];
  if (selector === TRANSFER && words.length >= 2) {
    const to = addressWord(words[0]!);
    return to ? { transactionId: transaction.txID, fromHex: value.owner_address.toLowerCase(), toHex: to, value: BigInt(`0x${words[1]}`) } : undefined;
  }
  if (selector === TRANSFER_FROM && words.length >= 3) {
    const from = addressWord(words[0]!);
    const to = addressWord(words[1]!);
    return from && to ? { transactionId: transaction.txID, fromHex: from, toHex: to, value: BigInt(`0x${words[2]}`) } : undefined;
  }
  return undefined;
}

/** The blocks of an answer, in the order given; `contractHex` is the token contract as 41-prefixed lower-case hex. */
export function readBlockList(body: unknown, contractHex: string): TronBlock[] {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new UnusableBlockList('blocks answer is not an object');
  const list = (body as { block?: unknown }).block;
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw new UnusableBlockList('blocks answer without a block list');
  return list.map((raw: { blockID?: unknown; block_header?: { raw_data?: { number?: unknown; timestamp?: unknown; parentHash?: unknown } }; transactions?: unknown }) => {
    const header = raw.block_header?.raw_data;
    const number = Number(header?.number ?? 0); // java-tron leaves out a zero field: only the genesis block has number 0
    const timestampMs = Number(header?.timestamp);
    if (!Number.isSafeInteger(number) || number < 0 || !Number.isFinite(timestampMs) || typeof raw.blockID !== 'string') throw new UnusableBlockList('block without block_header.raw_data.number and timestamp');
    const transactions = Array.isArray(raw.transactions) ? (raw.transactions as RawTransaction[]) : [];
    const transfers = transactions.map((transaction) => decodeTransfer(transaction, contractHex)).filter((transfer): transfer is TronBlockTransfer => transfer !== undefined);
    return { number, timestampMs, blockId: raw.blockID, parentHash: String(header?.parentHash ?? ''), transfers, transactionCount: transactions.length };
  });
}
