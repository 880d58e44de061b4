import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repositoryRoot } from '../lib/cli/run-admin-for-tests';
import { aMerchant, receivingAddresses } from '../test/factories';
import { contractSignature } from '../test/beds/contract-signer';
import { storedOrderCounts } from '../test/stored-orders';
import { distinctUsdtOrders } from '../test/distinct-usdt-orders';

/**
 * Two web nodes on one database, one killed with SIGKILL under submit load (as an operator found it: the other did not
 * notice). Every acknowledged order is stored once; requests cut by the kill are retried on the other node and answer
 * one order each; the surviving node never stalls.
 */
let merchant: Awaited<ReturnType<typeof aMerchant>>;
const nodes: { process: ChildProcess; baseUrl: string }[] = [];

async function startNode(): Promise<{ process: ChildProcess; baseUrl: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/open-api-node.ts'], { cwd: repositoryRoot, env: { ...process.env, NODE_ENV: 'production', ALLOW_HTTP_PUBLIC_BASE_URL: 'true', PUBLIC_BASE_URL: 'http://127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const match = /LISTENING (\d+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the web node exited ${code}:\n${output}`)));
  });
  return { process: child, baseUrl: `http://127.0.0.1:${port}` };
}

const usdtOrder = distinctUsdtOrders(() => merchant.appId, 'KILL');

async function submit(node: { baseUrl: string }, fields: Record<string, string>): Promise<{ ok: boolean; code?: number; orderNo?: string; error?: string }> {
  try {
    const response = await fetch(`${node.baseUrl}/v1/api/open/order/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...fields, signature: contractSignature(fields, merchant.appSecret) }),
      signal: AbortSignal.timeout(5_000),
    });
    const json = (await response.json()) as { code: number; data?: { orderNo?: string } };
    return { ok: true, code: json.code, orderNo: json.data?.orderNo };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}

beforeAll(async () => {
  merchant = await aMerchant({ wholePool: true }); // one merchant stands for the many a real load comes from
  await receivingAddresses(3);
  nodes.push(...(await Promise.all([startNode(), startNode()])));
});

afterAll(() => {
  for (const node of nodes) if (node.process.exitCode === null) node.process.kill('SIGKILL');
});

describe('a web node killed with SIGKILL under load', () => {
  it('loses and doubles nothing: cut requests are retried on the other node, which never stalls', async () => {
    const [victim, survivor] = nodes as [(typeof nodes)[0], (typeof nodes)[0]];
    const answers: { node: number; fields: Record<string, string>; result: Awaited<ReturnType<typeof submit>>; at: number }[] = [];
    let killedAt = 0;
    const load = Array.from({ length: 8 }, async (_, worker) => {
      const until = Date.now() + 4_000;
      for (let round = 0; Date.now() < until; round += 1) {
        const node = (worker + round) % 2;
        const fields = usdtOrder();
        answers.push({ node, fields, result: await submit(nodes[node]!, fields), at: Date.now() });
      }
    });
    const kill = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      victim.process.kill('SIGKILL');
      killedAt = Date.now();
    })();
    await Promise.all([...load, kill]);

    const survivorAnswers = answers.filter((answer) => answer.node === 1);
    expect(survivorAnswers.every((answer) => answer.result.ok && answer.result.code === 0)).toBe(true);
    const times = survivorAnswers.map((answer) => answer.at).sort((a, b) => a - b);
    const longestGap = Math.max(...times.slice(1).map((time, index) => time - times[index]!));
    expect(longestGap).toBeLessThan(1_000);
    const cut = answers.filter((answer) => !answer.result.ok);
    expect(cut.length).toBeGreaterThan(0);
    console.log(`web node killed under 8 submitters: ${answers.length} requests, ${cut.length} cut by the kill (retried on the other node), surviving node's longest gap ${longestGap} ms`);
    expect(cut.every((answer) => answer.node === 0 && answer.at >= killedAt - 100)).toBe(true);

    for (const answer of cut) expect(await submit(survivor, answer.fields)).toMatchObject({ ok: true, code: 0 }); // the merchant's retry
    const numbers = answers.map((answer) => answer.fields.merchantOrderNo!);
    expect(new Set(numbers).size).toBe(numbers.length);
    expect(await storedOrderCounts(numbers)).toEqual(numbers.map(() => 1)); // each acknowledged or retried order stored exactly once
  });
});
