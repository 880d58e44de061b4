import { randomBytes } from 'node:crypto';
import { getAddress, pad, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxEvmNode, type SandboxEvmNode } from '../sandbox/evm/evm-node';

// keccak256("Transfer(address,address,uint256)"), as the ERC-20 standard defines the event.
const TRANSFER = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
let node: SandboxEvmNode;
const anAddress = (): Address => getAddress(`0x${randomBytes(20).toString('hex')}`);

/** One JSON-RPC call over HTTP, as any client sends it. */
async function call(method: string, params: unknown[]) {
  const response = await fetch(node.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 7, method, params }) });
  return (await response.json()) as { id: number; result?: { blockNumber: string; transactionHash: string; topics: string[] }[]; error?: { code: number; message: string; data?: unknown } };
}

beforeAll(async () => {
  node = await startSandboxEvmNode({ chain: 'ERC20', port: 0 });
});
afterAll(async () => {
  await node?.close();
});

describe('the sandbox EVM node answers eth_getLogs as the JSON-RPC specification and hosted providers do', () => {
  it('filters by address (one or a list) and by topics, null matching any and a list matching any of its entries', async () => {
    const [first, second, other] = [anAddress(), anAddress(), anAddress()];
    const sent = [await node.transfer(first, '1'), await node.transfer(second, '2'), await node.transfer(other, '3')];
    const fromBlock = `0x${sent[0]!.blockNumber.toString(16)}`;
    const toFirstOrSecond = await call('eth_getLogs', [{ fromBlock, toBlock: 'latest', address: [node.token], topics: [TRANSFER, null, [pad(first.toLowerCase() as Address), pad(second.toLowerCase() as Address)]] }]);
    expect(toFirstOrSecond.result?.map((log) => log.transactionHash)).toEqual([sent[0]!.transactionHash, sent[1]!.transactionHash]);
    const all = await call('eth_getLogs', [{ fromBlock, toBlock: 'latest', address: node.token, topics: [TRANSFER] }]);
    expect(all.result).toHaveLength(3);
    const elsewhere = await call('eth_getLogs', [{ fromBlock, toBlock: 'latest', address: anAddress(), topics: [TRANSFER] }]);
    expect(elsewhere.result).toEqual([]);
  });

  it('refuses a block range over its cap (-32602) and more results than its cap (-32005, naming a range that fits), as providers do', async () => {
    const head = await node.blockNumber();
    node.limitLogs({ maxBlockRange: 2, maxResults: 10_000 });
    const wide = await call('eth_getLogs', [{ fromBlock: '0x0', toBlock: `0x${head.toString(16)}`, topics: [TRANSFER] }]);
    expect(wide).toMatchObject({ id: 7, error: { code: -32602, message: 'query exceeds max block range 2' } });
    expect(wide.result).toBeUndefined();

    node.limitLogs({ maxBlockRange: 10_000, maxResults: 1 });
    const many = await call('eth_getLogs', [{ fromBlock: '0x1', toBlock: 'latest', topics: [TRANSFER] }]);
    expect(many.error).toMatchObject({ code: -32005, message: 'query returned more than 1 results. Try with this block range [0x1, 0x1].', data: { from: '0x1', to: '0x1', limit: 1 } });
    const fits = await call('eth_getLogs', [{ fromBlock: '0x1', toBlock: '0x1', topics: [TRANSFER] }]);
    expect(fits.result).toHaveLength(1);
    node.limitLogs({ maxBlockRange: 10_000, maxResults: 10_000 });
  });
});
