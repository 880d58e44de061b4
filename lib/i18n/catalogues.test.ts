import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCALES } from './locales';
import { REFUND_STATES } from '../db/schema/refunds';
import { loadMessages, MESSAGE_AREAS } from './messages';

function keyPaths(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, inner]) => keyPaths(inner, prefix ? `${prefix}.${key}` : key));
}

function emptyLeaves(value: unknown, prefix = ''): string[] {
  if (typeof value === 'string') return value.trim() === '' ? [prefix] : [];
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, inner]) => emptyLeaves(inner, prefix ? `${prefix}.${key}` : key));
}

describe('message catalogues', () => {
  it('has a file for every area in every language, and nothing else', () => {
    for (const locale of LOCALES) {
      const files = readdirSync(path.join(import.meta.dirname, '../../messages', locale)).sort();
      expect(files).toEqual(MESSAGE_AREAS.map((area) => `${area}.json`).sort());
    }
  });

  it('says every message in both languages: a key missing from one fails here', async () => {
    const [first, ...others] = await Promise.all(LOCALES.map((locale) => loadMessages(locale)));
    for (const [index, other] of others.entries()) {
      expect(keyPaths(other).sort(), `${LOCALES[index + 1]} against ${LOCALES[0]}`).toEqual(keyPaths(first).sort());
    }
  });

  it('leaves no message empty', async () => {
    for (const locale of LOCALES) expect(emptyLeaves(await loadMessages(locale)), locale).toEqual([]);
  });

  it("names every refund state where a page writes any refund's state in words (the console's merchant page, the portal)", async () => {
    for (const locale of LOCALES) {
      const messages = (await loadMessages(locale)) as { console: { merchant: { refundStates: Record<string, string> } }; portal: { refunds: { states: Record<string, string> } } };
      for (const [where, states] of [['console.merchant.refundStates', messages.console.merchant.refundStates], ['portal.refunds.states', messages.portal.refunds.states]] as const) {
        expect(REFUND_STATES.filter((state) => !(state in states)), `${locale} ${where}`).toEqual([]);
      }
    }
  });
});
