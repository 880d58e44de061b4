import { describe, expect, it } from 'vitest';
import { newOrderNo, newPayToken } from './identifiers';

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

describe('newOrderNo', () => {
  it('stamps each order with its own UTC second, also when seconds alternate', () => {
    const first = new Date('2026-11-26T08:09:10.999Z');
    const next = new Date('2026-11-26T08:09:11.000Z');
    expect(newOrderNo('U', first)).toMatch(/^U20261126080910\d{8}$/);
    expect(newOrderNo('U', next)).toMatch(/^U20261126080911\d{8}$/);
    expect(newOrderNo('A', first)).toMatch(/^A20261126080910\d{8}$/);
  });
});
