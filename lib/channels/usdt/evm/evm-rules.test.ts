import { describe, expect, it } from 'vitest';
import { StartupRefusal } from '../../../config/startup-refusal';
import { InvalidEvmAddress, parseEvmAddress } from './evm-address';
import { centsToRaw, formatRaw, rawToExactCents, rawUnitsPerCent } from './evm-amounts';
import { EVM_CHAINS, evmChainByChainType } from './evm-chains';
import { enabledEvmChains, evmSettings } from './evm-config';

const env = (values: Record<string, string>) => values as NodeJS.ProcessEnv;

describe('EVM receiving addresses', () => {
  it('accepts a correct EIP-55 checksum and returns the checksummed form', () => {
    expect(parseEvmAddress('address', '0xdAC17F958D2ee523a2206206994597C13D831ec7')).toBe('0xdAC17F958D2ee523a2206206994597C13D831ec7');
    expect(parseEvmAddress('address', '0xdac17f958d2ee523a2206206994597c13d831ec7', { allowUnchecksummed: true })).toBe('0xdAC17F958D2ee523a2206206994597C13D831ec7');
  });

  it('refuses a wrong checksum, no checksum unless allowed, bad shapes and the zero address, naming the field', () => {
    for (const bad of ['0xdAC17F958D2ee523a2206206994597C13D831eC7', '0xdac17f958d2ee523a2206206994597c13d831ec7', '0xdAC17F958D2ee523a2206206994597C13D831e', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', '0x0000000000000000000000000000000000000000']) {
      expect(() => parseEvmAddress('addresses[2]', bad)).toThrow(InvalidEvmAddress);
      expect(() => parseEvmAddress('addresses[2]', bad)).toThrow(/^addresses\[2\]: not an EVM address with a valid EIP-55 checksum/);
    }
  });
});

describe('raw token units', () => {
  it('converts cents exactly with bigint: 10^4 per cent at 6 decimals, 10^16 at 18', () => {
    expect(rawUnitsPerCent(6)).toBe(10_000n);
    expect(centsToRaw(1234n, 6)).toBe(12_340_000n);
    expect(centsToRaw(1001n, 18)).toBe(10_010_000_000_000_000_000n);
    expect(centsToRaw(900_719_925_474_099_300n, 18)).toBe(9_007_199_254_740_993_000_000_000_000_000_000n); // past 2^53: no float anywhere
    expect(rawToExactCents(10_010_000_000_000_000_000n, 18)).toBe(1001n);
    expect(rawToExactCents(10_010_000_000_000_000_001n, 18)).toBeNull();
    expect(rawToExactCents(12_345_678n, 6)).toBeNull();
    expect(formatRaw(10_010_000_000_000_000_001n, 18)).toBe('10.010000000000000001');
    expect(formatRaw(25_000_000n, 6)).toBe('25');
    expect(() => centsToRaw(-1n, 6)).toThrow(RangeError);
  });
});

describe('EVM chain settings', () => {
  it('lists the three chains with the checked mainnet contracts, decimals and finality', () => {
    expect(evmChainByChainType('2')).toMatchObject({ name: 'ERC20', mainnetToken: '0xdAC17F958D2ee523a2206206994597C13D831ec7', decimals: 6, defaultFinality: { kind: 'finalized-tag' } });
    expect(evmChainByChainType('3')).toMatchObject({ name: 'BEP20', mainnetToken: '0x55d398326f99059fF775485246999027B3197955', decimals: 18, defaultFinality: { kind: 'depth', blocks: 15 } });
    expect(evmChainByChainType('4')).toMatchObject({ name: 'POLYGON', mainnetToken: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F', decimals: 6, defaultFinality: { kind: 'finalized-tag' } });
    expect(evmChainByChainType('1')).toBeUndefined();
    for (const chain of Object.values(EVM_CHAINS)) expect(parseEvmAddress('token', chain.mainnetToken)).toBe(chain.mainnetToken);
  });

  it('enables no chain by default and reads each enabled chain', () => {
    expect(enabledEvmChains(env({}))).toEqual([]);
    expect(evmSettings(env({})).chains).toEqual([]);
    const settings = evmSettings(env({ USDT_EVM_CHAINS: 'bep20, ERC20', EVM_BEP20_RPC_URLS: 'https://a.example/rpc, https://b.example/rpc', EVM_ERC20_RPC_URLS: 'https://eth.example', EVM_BEP20_FINALITY: '20' }));
    expect(settings.chains.map((chain) => [chain.definition.name, chain.rpcUrls, chain.finality, chain.chainId, chain.token])).toEqual([
      ['BEP20', ['https://a.example/rpc', 'https://b.example/rpc'], { kind: 'depth', blocks: 20 }, 56, '0x55d398326f99059fF775485246999027B3197955'],
      ['ERC20', ['https://eth.example'], { kind: 'finalized-tag' }, 1, '0xdAC17F958D2ee523a2206206994597C13D831ec7'],
    ]);
  });

  it('refuses to start on a missing or malformed setting of an enabled chain, naming it', () => {
    const refusal = (values: Record<string, string>) => {
      try {
        evmSettings(env(values));
      } catch (error) {
        expect(error).toBeInstanceOf(StartupRefusal);
        return (error as StartupRefusal).setting;
      }
      throw new Error('no refusal');
    };
    expect(refusal({ USDT_EVM_CHAINS: 'POLYGON' })).toBe('EVM_POLYGON_RPC_URLS');
    expect(refusal({ USDT_EVM_CHAINS: 'ERC20', EVM_ERC20_RPC_URLS: 'wss://eth.example' })).toBe('EVM_ERC20_RPC_URLS');
    expect(refusal({ USDT_EVM_CHAINS: 'ERC20,TRC20' })).toBe('USDT_EVM_CHAINS');
    expect(refusal({ USDT_EVM_CHAINS: 'BEP20', EVM_BEP20_RPC_URLS: 'https://bsc.example', EVM_BEP20_FINALITY: 'safe' })).toBe('EVM_BEP20_FINALITY');
    expect(refusal({ USDT_EVM_CHAINS: 'ERC20', EVM_ERC20_RPC_URLS: 'https://eth.example', EVM_ERC20_TOKEN_CONTRACT: '0xdac17f958d2ee523a2206206994597c13d831eC7' })).toBe('EVM_ERC20_TOKEN_CONTRACT');
  });
});

describe('EIP-55 checksums, as viem computes them', () => {
  it('accepts an address whose checksummed form is all upper case, as it is; its lower-case text still needs allowUnchecksummed', () => {
    // Every letter of this address's checksummed form is upper case (found by the random test below, in CI).
    const allUpper = '0x3B05A50ABBE297046106984B1867788BDE19F184';
    expect(parseEvmAddress('address', allUpper)).toBe(allUpper);
    expect(() => parseEvmAddress('address', allUpper.toLowerCase())).toThrow(InvalidEvmAddress);
    expect(parseEvmAddress('address', allUpper.toLowerCase(), { allowUnchecksummed: true })).toBe(allUpper);
  });

  it('gives every address the checksummed form viem gives it, and refuses one digit of the wrong case', async () => {
    const { getAddress } = await import('viem');
    const { randomBytes } = await import('node:crypto');
    for (let index = 0; index < 200; index += 1) {
      const lower = `0x${randomBytes(20).toString('hex')}`;
      const expected = getAddress(lower);
      expect(parseEvmAddress('address', lower, { allowUnchecksummed: true })).toBe(expected);
      expect(parseEvmAddress('address', expected)).toBe(expected);
      const letterAt = [...expected.slice(2)].findIndex((char) => /[a-fA-F]/.test(char)) + 2;
      if (letterAt < 2) continue;
      const flipped = expected.slice(0, letterAt) + (expected[letterAt] === expected[letterAt]!.toUpperCase() ? expected[letterAt]!.toLowerCase() : expected[letterAt]!.toUpperCase()) + expected.slice(letterAt + 1);
      const body = flipped.slice(2);
      if (body === body.toLowerCase() || body === body.toUpperCase()) continue; // a single-case text has no checksum
      expect(() => parseEvmAddress('address', flipped)).toThrow(InvalidEvmAddress);
    }
  });
});
