import { HttpRequestError, LimitExceededRpcError, RpcRequestError } from 'viem';
import { describe, expect, it } from 'vitest';
import { isRateLimit, isRequestTooLarge } from './evm-rpc-pool';

const rpcError = (code: number, message: string) => new RpcRequestError({ body: {}, url: 'https://rpc.example', error: { code, message } });

describe('how the watcher reads an endpoint refusing', () => {
  it('takes 429 and -32005 for a rate limit', () => {
    expect(isRateLimit(new HttpRequestError({ url: 'https://rpc.example', status: 429 }))).toBe(true);
    expect(isRateLimit(new LimitExceededRpcError(rpcError(-32005, 'daily request count exceeded, request rate limited')))).toBe(true);
    expect(isRateLimit(new HttpRequestError({ url: 'https://rpc.example', status: 503 }))).toBe(false);
    expect(isRateLimit(rpcError(-32000, 'header not found'))).toBe(false);
  });

  it('takes the providers’ "range or result too large" answers for a request to narrow, not a rate limit to wait out', () => {
    for (const message of [
      'query returned more than 10000 results. Try with this block range [0xBDE5F8, 0x102DBCC].',
      'Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the response size',
      'eth_getLogs range is too large, max is 1k blocks',
      'query exceeds max block range 100000',
      'eth_getLogs is limited to 1024 block range.',
      'query exceeds max results 20000, retry with the range 23879634-23879696',
    ]) {
      expect(isRequestTooLarge(new LimitExceededRpcError(rpcError(-32005, message))), message).toBe(true);
    }
    expect(isRequestTooLarge(new LimitExceededRpcError(rpcError(-32005, 'daily request count exceeded, request rate limited')))).toBe(false);
    expect(isRequestTooLarge(new HttpRequestError({ url: 'https://rpc.example', status: 429 }))).toBe(false);
  });
});
