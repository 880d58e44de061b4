import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import type { AbstractIntlMessages } from 'use-intl/core';
import { describe, expect, it } from 'vitest';
import { domainTranslator } from './domain-translator';
import { LOCALES, type Locale } from './locales';
import { loadMessages } from './messages';

const ROOT = path.join(import.meta.dirname, '../..');
/** Where domain messages are made: the domain, and the transports that may add their own refusals. */
const SCANNED = ['lib', 'app', 'components', 'pages'];

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((entry) => {
    const full = path.join(directory, entry);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry) && !/\.test\.tsx?$/.test(entry) && !entry.endsWith('.d.ts') ? [full] : [];
  });
}

interface MessageCall {
  where: string;
  key?: string;
  /** The value names the call gives; undefined when they cannot be read (not an object literal, a spread). */
  values?: string[];
}

/** Every `domainMessage(…)` call in a file: its literal key and the names of its values. */
export function messageCalls(source: string, file = 'source.ts'): MessageCall[] {
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const calls: MessageCall[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'domainMessage') {
      const [key, values] = node.arguments;
      const where = `${file}:${tree.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
      calls.push({ where, key: key && ts.isStringLiteralLike(key) ? key.text : undefined, values: valueNames(values) });
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return calls;
}

function valueNames(values: ts.Expression | undefined): string[] | undefined {
  if (values === undefined) return [];
  if (!ts.isObjectLiteralExpression(values)) return undefined;
  const names: string[] = [];
  for (const property of values.properties) {
    if (ts.isShorthandPropertyAssignment(property)) names.push(property.name.text);
    else if (ts.isPropertyAssignment(property) && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name))) names.push(property.name.text);
    else return undefined;
  }
  return names.sort();
}

function leaves(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, inner]) => leaves(inner, prefix ? `${prefix}.${key}` : key));
}

/**
 * Whether one language says `key` with exactly `names`: formatting with all of them raises no error, and leaving out
 * any one of them does (so a value the catalogue never uses fails too).
 */
function problemsOf(locale: Locale, catalogue: AbstractIntlMessages, key: string, names: string[]): string[] {
  const errors: string[] = [];
  const translate = domainTranslator(locale, catalogue, (error) => errors.push(error.message));
  const valuesWithout = (left: string | undefined) => Object.fromEntries(names.filter((name) => name !== left).map((name) => [name, `<${name}>`]));
  translate({ key, values: valuesWithout(undefined) });
  if (errors.length > 0) return [`${key}: ${errors.join('; ')}`];
  return names.flatMap((name) => {
    errors.length = 0;
    translate({ key, values: valuesWithout(name) });
    return errors.length > 0 ? [] : [`${key} does not use {${name}}`];
  });
}

describe('domain messages', () => {
  it('reads keys and value names the way the domain writes them', () => {
    const source = `
      const a = domainMessage('credentialFields.required');
      const b = domainMessage('credentialFields.rsaTooShort', { min: MIN_RSA_BITS, bits });
      const c = domainMessage(someKey);
      const d = domainMessage('x.y', { ...values });`;
    expect(messageCalls(source).map(({ key, values }) => ({ key, values }))).toEqual([
      { key: 'credentialFields.required', values: [] },
      { key: 'credentialFields.rsaTooShort', values: ['bits', 'min'] },
      { key: undefined, values: [] },
      { key: 'x.y', values: undefined },
    ]);
  });

  it('are each in both catalogues, with exactly the values the code gives, and the catalogues hold no other', async () => {
    const files = SCANNED.flatMap((directory) => sourceFiles(path.join(ROOT, directory)));
    const calls = files.flatMap((file) => messageCalls(readFileSync(file, 'utf8'), path.relative(ROOT, file)));
    expect(calls.length).toBeGreaterThan(30);
    expect(calls.filter((call) => call.key === undefined || call.values === undefined).map((call) => `${call.where}: not a literal key and object literal`)).toEqual([]);

    for (const locale of LOCALES) {
      const catalogue = (await loadMessages(locale, ['domain'])).domain as AbstractIntlMessages;
      const known = new Set(leaves(catalogue));
      const used = new Set(['listSeparator', ...calls.map((call) => call.key!)]);
      const problems = [
        ...calls.filter((call) => !known.has(call.key!)).map((call) => `${call.where}: no message ${call.key}`),
        ...calls.filter((call) => known.has(call.key!)).flatMap((call) => problemsOf(locale, catalogue, call.key!, call.values!).map((problem) => `${call.where}: ${problem}`)),
        ...[...known].filter((key) => !used.has(key)).map((key) => `${key}: no code uses it`),
      ];
      expect(problems, locale).toEqual([]);
    }
  });
});
