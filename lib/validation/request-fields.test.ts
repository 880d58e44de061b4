import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors/domain-error';
import { decodeBody, parseRequestFields } from './request-fields';

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

describe('decodeBody', () => {
  it('refuses invalid UTF-8 and bodies over 64 KiB', () => {
    expect(failure(() => decodeBody(new Uint8Array([0x7b, 0xff, 0x7d])))).toBe('invalid_parameter: request body is not valid UTF-8');
    expect(failure(() => decodeBody(new Uint8Array(64 * 1024 + 1)))).toBe('invalid_parameter: request body exceeds 64 KiB');
    expect(decodeBody(new TextEncoder().encode('{"a":"商品"}'))).toBe('{"a":"商品"}');
  });
});
