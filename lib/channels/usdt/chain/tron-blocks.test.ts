import { describe, expect, it } from 'vitest';
import { readBlockList, UnusableBlockList } from './tron-blocks';

const USDT = '41a614f803b6fd780986a42c78ec9c7f77e6ded13c';
const word = (hex: string) => hex.padStart(64, '0');
const PAYER = '41' + '11'.repeat(20);
const TO = '22'.repeat(20);

function call(data: string, options: { contract?: string; ret?: string; type?: string } = {}) {
  return {
    txID: `tx${data.slice(0, 12)}${options.ret ?? ''}${options.contract ?? ''}`,
    ret: [{ contractRet: options.ret ?? 'SUCCESS' }],
    raw_data: { contract: [{ type: options.type ?? 'TriggerSmartContract', parameter: { value: { data, owner_address: PAYER, contract_address: options.contract ?? USDT } } }] },
  };
}

describe('reading solidified blocks (getblockbylimitnext)', () => {
  it('decodes transfer and transferFrom calls on the token; skips failed calls, other contracts and other transactions', () => {
    const transfer = call(`a9059cbb${word(TO)}${word((88_000_000n).toString(16))}`);
    const transferFrom = call(`23b872dd${word('33'.repeat(20))}${word(TO)}${word('0f4240')}`);
    const reverted = call(`a9059cbb${word(TO)}${word('01')}`, { ret: 'REVERT' });
    const otherToken = call(`a9059cbb${word(TO)}${word('02')}`, { contract: '41' + '44'.repeat(20) });
    const approve = call(`095ea7b3${word(TO)}${word('03')}`);
    const trx = { txID: 'trx', ret: [{ contractRet: 'SUCCESS' }], raw_data: { contract: [{ type: 'TransferContract', parameter: { value: { amount: 5 } } }] } };
    const [block] = readBlockList({ block: [{ blockID: 'b1', block_header: { raw_data: { number: 70_000_000, timestamp: 1_700_000_000_000, parentHash: 'b0' } }, transactions: [transfer, transferFrom, reverted, otherToken, approve, trx] }] }, USDT);
    expect(block).toMatchObject({ number: 70_000_000, timestampMs: 1_700_000_000_000, transactionCount: 6 });
    expect(block!.transfers).toEqual([
      { transactionId: transfer.txID, fromHex: PAYER, toHex: `41${TO}`, value: 88_000_000n },
      { transactionId: transferFrom.txID, fromHex: `41${'33'.repeat(20)}`, toHex: `41${TO}`, value: 1_000_000n },
    ]);
  });

  it('an empty answer ({}) is no block yet; an answer that is not a block list fails the endpoint', () => {
    expect(readBlockList({}, USDT)).toEqual([]);
    expect(() => readBlockList({ block: 'x' }, USDT)).toThrow(UnusableBlockList);
    expect(() => readBlockList({ block: [{ block_header: {} }] }, USDT)).toThrow(UnusableBlockList);
    expect(() => readBlockList([], USDT)).toThrow(UnusableBlockList);
  });
});
