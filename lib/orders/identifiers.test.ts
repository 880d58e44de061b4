import { describe, expect, it } from 'vitest';
import { newPayToken } from './identifiers';

describe('newPayToken', () => {
  it('hands out 256 random bits per token, never the same bytes twice, across refills of its random buffer', () => {
    const tokens = Array.from({ length: 1000 }, () => newPayToken()); // about eight refills
    expect(new Set(tokens).size).toBe(tokens.length);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const bytes = tokens.map((token) => Buffer.from(token, 'base64url'));
    expect(bytes.every((value) => value.length === 32)).toBe(true);
    // No token is a shifted or repeated piece of another: every 8-byte window of every token is unique.
    const windows = new Set(bytes.flatMap((value) => [0, 8, 16, 24].map((at) => value.subarray(at, at + 8).toString('hex'))));
    expect(windows.size).toBe(tokens.length * 4);
  });
});
