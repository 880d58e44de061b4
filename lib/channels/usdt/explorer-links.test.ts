import { describe, expect, it } from 'vitest';
import { explorerTransactionUrl } from './explorer-links';

describe('explorer links of a paying transaction', () => {
  it('point at each chain\'s explorer', () => {
    const tron = 'a'.repeat(64);
    const evm = `0x${'b'.repeat(64)}`;
    expect(explorerTransactionUrl('TRC20', tron)).toBe(`https://tronscan.org/#/transaction/${tron}`);
    expect(explorerTransactionUrl('ERC20', evm)).toBe(`https://etherscan.io/tx/${evm}`);
    expect(explorerTransactionUrl('BEP20', evm)).toBe(`https://bscscan.com/tx/${evm}`);
    expect(explorerTransactionUrl('POLYGON', evm)).toBe(`https://polygonscan.com/tx/${evm}`);
  });

  it('give none for an id that is not a transaction\'s, or an unknown chain', () => {
    expect(explorerTransactionUrl('BEP20', 'manual-completion')).toBeUndefined();
    expect(explorerTransactionUrl('BEP20', `0x${'b'.repeat(64)}/../x`)).toBeUndefined();
    expect(explorerTransactionUrl('DOGE', 'a'.repeat(64))).toBeUndefined();
  });
});
