import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors/domain-error';
import { decodeBody, parseAnyRequestFields, parseRequestFields } from './request-fields';

function failure(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof DomainError) return `${error.kind}: ${error.message}`;
    throw error;
  }
  throw new Error('expected a failure');
}

describe('parseRequestFields', () => {
  it('keeps strings, the JSON text of numbers and booleans, and null as empty', () => {
    const fields = parseRequestFields('{ "a": "x", "n": 12.50, "i": -3, "e": 1e2, "t": true, "f": false, "z": null, "s": "say \\"hi\\"" }');
    expect({ ...fields }).toEqual({ a: 'x', n: '12.50', i: '-3', e: '1e2', t: 'true', f: 'false', z: undefined, s: 'say "hi"' });
  });

  it('handles an empty object and whitespace everywhere', () => {
    expect({ ...parseRequestFields(' {\n} ') }).toEqual({});
    expect({ ...parseRequestFields('{\n\t"a" :\t"1" ,\r\n "b":2}') }).toEqual({ a: '1', b: '2' });
  });

  it.each([
    ['{', 'invalid_parameter: request body is not valid JSON'],
    ['', 'invalid_parameter: request body is not valid JSON'],
    ['[1,2]', 'invalid_parameter: request body must be a JSON object'],
    ['"text"', 'invalid_parameter: request body must be a JSON object'],
    ['null', 'invalid_parameter: request body must be a JSON object'],
    ['{"appId":{"a":1}}', 'invalid_parameter: appId must be a string, not an object'],
    ['{"pay_usdt":[1]}', 'invalid_parameter: pay_usdt must be a string, not an array'],
    ['{"a":"1","a":"2"}', 'invalid_parameter: a is given more than once'],
    ['{"attach":"a\\u0000b"}', 'invalid_parameter: attach must not contain NUL characters'],
    ['{"attach":"\\ud800"}', 'invalid_parameter: attach is not valid Unicode text'],
    ['{"a\\u0000":"1"}', 'invalid_parameter: field names must not contain NUL characters'],
  ])('refuses %s', (body, expected) => {
    expect(failure(() => parseRequestFields(body))).toBe(expected);
  });
});

/** Fields or the refusal, comparable across the two readings. */
function outcome(read: (body: string) => Readonly<Record<string, string | undefined>>, body: string): unknown {
  try {
    return { fields: Object.entries(read(body)) };
  } catch (error) {
    if (error instanceof DomainError) return { refused: error.message };
    throw error;
  }
}

/** A small deterministic generator (mulberry32), so that a failing body is found again. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PIECES = [
  '{', '}', '"a"', '"b"', '"__proto__"', ':', ',', ' ', '\n', '\t', '"x"', '""', '"a b"', '1', '-0.5e3', '01', '-', '1.', '2E+7', 'true', 'truex', 'false',
  'null', 'nul', '[', ']', '"\\u0000"', '"\u0001"', '"\ud800"', '"\ud83d\ude00"', '"\\""', '"\\ud800"', '"商品"', '"\\n"', '"\u007f"', '\u00a0', '"',
];

describe('the one-pass reading of plain bodies', () => {
  it('reads every body as the careful reading does (the same fields, or the same refusal)', () => {
    const next = random(33);
    const pick = () => PIECES[Math.floor(next() * PIECES.length)]!;
    let accepted = 0;
    for (let round = 0; round < 20_000; round += 1) {
      // Half free-form token soup, half well-formed objects with random names and values.
      const body =
        round % 2 === 0
          ? Array.from({ length: 1 + Math.floor(next() * 12) }, pick).join('')
          : `{${Array.from({ length: Math.floor(next() * 5) }, () => `${pick()}:${pick()}`).join(',')}}`;
      const expected = outcome(parseAnyRequestFields, body);
      expect(outcome(parseRequestFields, body), body).toEqual(expected);
      if ('fields' in (expected as object)) accepted += 1;
    }
    expect(accepted).toBeGreaterThan(1_000); // the generator reaches readable bodies, not only refusals
  });

  it('reads a compact submit body, a pretty-printed one and one with escapes to the same fields', () => {
    const fields = { appId: 'mch_1', amount: '12.50', attach: 'say "hi"', productName: '商品 😀' };
    for (const body of [JSON.stringify(fields), JSON.stringify(fields, null, 2), JSON.stringify(fields).replace('商品', '\\u5546\\u54c1')]) {
      expect({ ...parseRequestFields(body) }).toEqual(fields);
    }
  });
});

describe('decodeBody', () => {
  it('refuses invalid UTF-8 and bodies over 64 KiB', () => {
    expect(failure(() => decodeBody(new Uint8Array([0x7b, 0xff, 0x7d])))).toBe('invalid_parameter: request body is not valid UTF-8');
    expect(failure(() => decodeBody(new Uint8Array(64 * 1024 + 1)))).toBe('invalid_parameter: request body exceeds 64 KiB');
    expect(decodeBody(new TextEncoder().encode('{"a":"商品"}'))).toBe('{"a":"商品"}');
  });
});
