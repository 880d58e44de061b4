import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { postgresArray } from './postgres-array';

/** node-postgres's own conversion of a parameter (not in its typings). */
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue: (value: unknown) => unknown };

describe('postgresArray', () => {
  it('writes an array parameter exactly as node-postgres does', () => {
    const cases = [
      [],
      ['a', 'b c', '', 'x"y', 'back\\slash', '\\"', '{,}', 'NULL', '商品'],
      [null, undefined, 'a', null],
      [1, 0, -2, 12.5],
      [12n, 0n],
      [true, false, null],
    ];
    for (const elements of cases) expect(postgresArray(elements)).toBe(prepareValue(elements));
  });
});
