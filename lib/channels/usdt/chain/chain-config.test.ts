import { describe, expect, it } from 'vitest';
import { publicBaseUrl } from '../../../orders/identifiers';
import { chainConfig, ChainNotConfigured, describeChainAccess, endpointLabel } from './chain-config';

const production = { NODE_ENV: 'production' } as NodeJS.ProcessEnv;
const development = (settings: Record<string, string>) => ({ NODE_ENV: 'development', ...settings }) as NodeJS.ProcessEnv;

describe('chain watcher settings', () => {
  it('production refuses TronGrid without TRONGRID_API_KEY, naming the settings that fix it', () => {
    expect(() => chainConfig(production)).toThrow(ChainNotConfigured);
    expect(() => chainConfig(production)).toThrow(/TRONGRID_API_KEY is required in production.*TRONGRID_SELF_HOSTED=true/);
    expect(() => chainConfig({ ...production, TRONGRID_BASE_URLS: 'https://api.trongrid.io,https://node.example' })).toThrow(/TRONGRID_API_KEY/);
    expect(() => chainConfig({ ...production, TRONGRID_BASE_URL: 'https://node.example' })).toThrow(/TRONGRID_API_KEY/);
  });

  it('production runs with a key, or keyless only where TRONGRID_SELF_HOSTED=true names nodes of its own', () => {
    const keyed = chainConfig({ ...production, TRONGRID_API_KEY: 'secret-key-1' });
    expect(keyed).toMatchObject({ baseUrls: ['https://api.trongrid.io'], apiKey: 'secret-key-1', access: 'api-key' });
    expect(describeChainAccess(keyed)).not.toContain('secret-key-1');
    expect(describeChainAccess(keyed)).toContain('with TRONGRID_API_KEY');

    const own = chainConfig({ ...production, TRONGRID_SELF_HOSTED: 'true', TRONGRID_BASE_URLS: 'http://10.0.0.5:8090, http://10.0.0.6:8090/' });
    expect(own).toMatchObject({ baseUrls: ['http://10.0.0.5:8090', 'http://10.0.0.6:8090'], apiKey: undefined, access: 'self-hosted' });
    expect(describeChainAccess(own)).toContain('TRONGRID_SELF_HOSTED=true');

    expect(() => chainConfig({ ...production, TRONGRID_SELF_HOSTED: 'true' })).toThrow('TRONGRID_SELF_HOSTED=true needs TRONGRID_BASE_URLS');
    expect(() => chainConfig({ ...production, TRONGRID_SELF_HOSTED: 'true', TRONGRID_BASE_URLS: 'http://10.0.0.5:8090,https://api.trongrid.io' })).toThrow(
      /includes TronGrid \(https:\/\/api\.trongrid\.io\), which needs TRONGRID_API_KEY/,
    );
    expect(() => chainConfig({ ...production, TRONGRID_SELF_HOSTED: 'yes' })).toThrow('TRONGRID_SELF_HOSTED must be true or false');
  });

  it('production with the sandbox switched on never falls back to the sandbox chain; naming it reads it, without a key', () => {
    expect(() => chainConfig({ ...production, SANDBOX_ENABLED: 'true' })).toThrow(/TRONGRID_API_KEY is required in production/);
    expect(chainConfig({ ...production, SANDBOX_ENABLED: 'true', TRONGRID_API_KEY: 'k' }).baseUrls).toEqual(['https://api.trongrid.io']);
    const sandboxChain = `${publicBaseUrl()}/sandbox/tron`;
    const named = chainConfig({ ...production, SANDBOX_ENABLED: 'true', TRONGRID_BASE_URLS: sandboxChain });
    expect(named.access).toBe('sandbox');
    expect(named.baseUrls).toEqual([sandboxChain]);
  });

  it('TRONGRID_BASE_URLS lists endpoints in order; TRONGRID_BASE_URL still names one; malformed lists are refused by name', () => {
    expect(chainConfig(development({ TRONGRID_BASE_URL: 'https://api.shasta.trongrid.io/' })).baseUrls).toEqual(['https://api.shasta.trongrid.io']);
    expect(chainConfig(development({ TRONGRID_BASE_URLS: 'https://a.example,https://b.example', TRONGRID_BASE_URL: 'https://c.example' })).baseUrls).toEqual([
      'https://a.example',
      'https://b.example',
    ]);
    expect(() => chainConfig(development({ TRONGRID_BASE_URLS: 'https://a.example,ftp://b.example' }))).toThrow('TRONGRID_BASE_URLS must list http(s) URLs');
    expect(() => chainConfig(development({ TRONGRID_BASE_URLS: ' , ' }))).toThrow('TRONGRID_BASE_URLS lists no URL');
    expect(() => chainConfig(development({ CHAIN_ENDPOINT_RETRY_MS: '-5' }))).toThrow('CHAIN_ENDPOINT_RETRY_MS must be a whole number of milliseconds');
    expect(chainConfig(development({})).endpointRetryMs).toBe(60_000);
  });

  it('labels endpoints without credentials, query or token-like path segments', () => {
    expect(endpointLabel('https://user:pw@tron.provider.example/abcdefghijklmnopqrstuvwxyz012345/?key=1')).toBe('https://tron.provider.example/abcd…/');
    expect(endpointLabel('https://api.trongrid.io')).toBe('https://api.trongrid.io');
  });
});
