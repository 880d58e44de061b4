import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxEvmNode, type SandboxEvmNode } from '../sandbox/evm/evm-node';
import { compileSandboxToken, serializeArtifact, TOKEN_ARTIFACT_PATH } from '../sandbox/evm/token-build';
import { runSandbox } from '../test/run-sandbox';
import { freePort } from '../test/dev-server-process';

// A port of its own on every run: a second run beside this one (CI's other database) takes another.
const BEP20_PORT = await freePort();
let node: SandboxEvmNode;

beforeAll(async () => {
  node = await startSandboxEvmNode({ chain: 'BEP20', port: BEP20_PORT });
});
afterAll(async () => {
  await node?.close();
});

describe('the sandbox EVM token', () => {
  it('is the artifact npm run sandbox:build-token builds from SandboxUsdt.sol', () => {
    expect(readFileSync(TOKEN_ARTIFACT_PATH, 'utf8')).toBe(serializeArtifact(compileSandboxToken()));
  });
});

describe('npm run sandbox -- evm transfer', () => {
  const env = () => ({ ...process.env, EVM_BEP20_RPC_URLS: node.rpcUrl });

  it('sends 18-decimal USDT on the BEP20 sandbox node as a wallet would', async () => {
    const to = getAddress(`0x${randomBytes(20).toString('hex')}`);
    const { exitCode, stdout, stderr } = await runSandbox(['evm', 'transfer', '--chain', 'BEP20', '--to', to, '--amount', '10.01', '--json'], env());
    expect(stderr).toBe('');
    expect(exitCode).toBe(0);
    const printed = JSON.parse(stdout);
    expect(printed).toMatchObject({ chain: 'BEP20', to, amount: '10.01', raw: '10010000000000000000', from: node.payer, token: node.token });
    expect(await node.balanceOf(to)).toBe(10_010_000_000_000_000_000n);
  });

  it('refuses a bad checksum, a bad chain and too many decimals, naming what is wrong', async () => {
    const lower = `0x${randomBytes(20).toString('hex')}`;
    const checksumBroken = '0xdAC17F958D2ee523a2206206994597C13D831eC7'; // Tether's ERC20 contract with one letter's case flipped
    const refused = await runSandbox(['evm', 'transfer', '--chain', 'BEP20', '--to', checksumBroken, '--amount', '1'], env());
    expect(refused.exitCode).toBe(1);
    expect(refused.stderr).toMatch(/to: not an EVM address with a valid EIP-55 checksum/);
    const badChain = await runSandbox(['evm', 'transfer', '--chain', 'TRC20', '--to', getAddress(lower), '--amount', '1'], env());
    expect(badChain.exitCode).toBe(1);
    expect(badChain.stderr).toMatch(/--chain must be one of ERC20\|BEP20\|POLYGON/);
    const tooPrecise = await runSandbox(['evm', 'transfer', '--chain', 'ERC20', '--to', getAddress(lower), '--amount', '1.0000001'], { ...env(), EVM_ERC20_RPC_URLS: node.rpcUrl });
    expect(tooPrecise.exitCode).toBe(1);
    expect(tooPrecise.stderr).toMatch(/amount: .*at most 6 decimals/);
  }, 90_000); // three CLI processes in a row
});
