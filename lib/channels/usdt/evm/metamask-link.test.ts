import { describe, expect, it } from 'vitest';
import { metaMaskTransferLink, orderMetaMaskLink } from './metamask-link';

const PAY_TO = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';

describe('metaMaskTransferLink', () => {
  it('asks for the exact amount in the token’s raw units on its chain (Tether on Ethereum: 6 decimals)', () => {
    expect(metaMaskTransferLink({ token: '0xdAC17F958D2ee523a2206206994597C13D831ec7', chainId: 1, to: PAY_TO, cents: 1234n, decimals: 6 })).toBe(
      `https://link.metamask.io/send/0xdAC17F958D2ee523a2206206994597C13D831ec7@1/transfer?address=${PAY_TO}&uint256=12340000`,
    );
  });

  it('writes 18-decimal amounts out in full, never as a float or an exponent (BNB Smart Chain)', () => {
    const link = metaMaskTransferLink({ token: '0x55d398326f99059fF775485246999027B3197955', chainId: 56, to: PAY_TO, cents: 987654321n, decimals: 18 });
    expect(new URL(link).searchParams.get('uint256')).toBe('9876543210000000000000000');
  });
});

describe('orderMetaMaskLink', () => {
  it('uses the token and chain id the service watches, and gives none for a chain that is not enabled', () => {
    const env: NodeJS.ProcessEnv = { NODE_ENV: 'test', USDT_EVM_CHAINS: 'POLYGON', EVM_POLYGON_RPC_URLS: 'https://polygon.example', EVM_POLYGON_CHAIN_ID: '80002' };
    expect(orderMetaMaskLink('POLYGON', PAY_TO, 100n, env)).toBe(
      `https://link.metamask.io/send/0xc2132D05D31c914a87C6611C10748AEb04B58e8F@80002/transfer?address=${PAY_TO}&uint256=1000000`,
    );
    expect(orderMetaMaskLink('ERC20', PAY_TO, 100n, env)).toBeUndefined();
  });
});
