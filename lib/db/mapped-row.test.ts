import { bigint, boolean, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { afterEach, describe, expect, it } from 'vitest';
import { mappedRow } from './mapped-row';

const table = pgTable('mapped_row_example', {
  name: text('name').notNull(),
  amount: bigint('amount', { mode: 'bigint' }).notNull(),
  enabled: boolean('enabled').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  localAt: timestamp('local_at'),
});
const columns = Object.entries({ name: table.name, amount: table.amount, enabled: table.enabled, expiresAt: table.expiresAt, localAt: table.localAt });

/** Driver values as node-postgres hands them to Drizzle: timestamps as PostgreSQL's text. */
const raw = { name: 'U1', amount: '123456789012345678', enabled: true, expires_at: '2026-11-28 23:55:25.123+08', local_at: '2026-11-28 23:55:25.5' };

const platformDate = globalThis.Date;
afterEach(() => {
  globalThis.Date = platformDate;
});

describe('mappedRow', () => {
  it('maps each column as Drizzle does, timestamps with and without a zone included', () => {
    const row = mappedRow<Record<string, unknown>>(columns, raw);
    for (const [key, column] of columns) {
      expect(row[key], key).toEqual(column.mapFromDriverValue(raw[column.name as keyof typeof raw]));
    }
    expect((row.expiresAt as Date).toISOString()).toBe('2026-11-28T15:55:25.123Z');
    expect((row.localAt as Date).toISOString()).toBe('2026-11-28T23:55:25.500Z');
    expect(mappedRow<Record<string, unknown>>(columns, { ...raw, local_at: null }).localAt).toBeNull();
  });

  it("builds timestamps without the global Date, which Next.js replaces with a wrapper once it prepares", () => {
    let wrapped = 0;
    globalThis.Date = new Proxy(platformDate, {
      construct(target, args, newTarget) {
        wrapped += 1;
        return Reflect.construct(target, args, newTarget) as object;
      },
    });
    const row = mappedRow<Record<string, unknown>>(columns, raw);
    expect(row.expiresAt).toBeInstanceOf(platformDate);
    expect(wrapped).toBe(0);
    new Date(0); // the wrapper counts what goes through it
    expect(wrapped).toBe(1);
  });
});
