import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCALES } from './locales';
import { loadMessages } from './messages';

const ROOT = path.join(import.meta.dirname, '../..');
const SCANNED = ['app', 'pages', 'components'];

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((entry) => {
    const full = path.join(directory, entry);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry) && !/\.test\.tsx?$/.test(entry) ? [full] : [];
  });
}

/**
 * The keys a file asks for: each `const x = useTranslations('ns')` / `getTranslations('ns')` binding (also inside a
 * `Promise.all([...])` destructuring), then every `x('key'` / `x.rich('key'` / `x.has('key'` with a literal key.
 * A template key (`x(\`status.${value}\`)`) is checked by its literal prefix: some key must start with it.
 */
export function usedKeys(source: string): { exact: string[]; prefixes: string[] } {
  // A name may be bound more than once in a file (one translator per component): a call uses the closest binding above it.
  const bindings: { name: string; namespace: string; at: number }[] = [];
  for (const match of source.matchAll(/const (\w+) = (?:await )?(?:useTranslations|getTranslations)\(\s*'([\w.-]+)'\s*\)/g)) {
    bindings.push({ name: match[1]!, namespace: match[2]!, at: match.index });
  }
  for (const match of source.matchAll(/const \[([\w\s,{}]+)\] = await Promise\.all\(\[([\s\S]*?)\]\);/g)) {
    const names = match[1]!.split(',').map((name) => name.trim());
    const calls = [...match[2]!.matchAll(/(?:^|,)\s*([\w.]+\([^()]*(?:\([^()]*\)[^()]*)*\))/g)].map((call) => call[1]!);
    names.forEach((name, index) => {
      const namespace = /^getTranslations\('([\w.-]+)'\)$/.exec(calls[index] ?? '')?.[1];
      if (/^\w+$/.test(name) && namespace) bindings.push({ name, namespace, at: match.index });
    });
  }
  const exact: string[] = [];
  const prefixes: string[] = [];
  for (const name of new Set(bindings.map((binding) => binding.name))) {
    for (const call of source.matchAll(new RegExp(`\\b${name}(?:\\.rich|\\.has)?\\(\\s*(['\`])([^'\`$]*)(\\$\\{)?`, 'g'))) {
      const binding = bindings.filter((candidate) => candidate.name === name && candidate.at < call.index).at(-1);
      if (!binding) continue;
      const key = `${binding.namespace}.${call[2]}`;
      if (call[1] === '`' && call[3]) prefixes.push(key);
      else exact.push(key);
    }
  }
  return { exact, prefixes };
}

function leaves(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, inner]) => leaves(inner, prefix ? `${prefix}.${key}` : key));
}

describe('keys used in code', () => {
  it('reads bindings and keys the way pages write them', () => {
    const source = `
      const t = useTranslations('portal.orders');
      const [a, common] = await Promise.all([listThings(getDb(), x), getTranslations('common')]);
      t('title'); t.rich('intro', { b: (c) => c }); common('pager.newest'); t(\`status.\${value}\`); a('not.a.translator');`;
    expect(usedKeys(source)).toEqual({ exact: ['portal.orders.title', 'portal.orders.intro', 'common.pager.newest'], prefixes: ['portal.orders.status.'] });
  });

  it('finds every key the portal and console ask for in both catalogues', async () => {
    const files = SCANNED.flatMap((directory) => sourceFiles(path.join(ROOT, directory)));
    const used = files.map((file) => ({ file: path.relative(ROOT, file), ...usedKeys(readFileSync(file, 'utf8')) }));
    expect(used.reduce((sum, entry) => sum + entry.exact.length, 0)).toBeGreaterThan(200);
    for (const locale of LOCALES) {
      const known = leaves(await loadMessages(locale));
      const knownSet = new Set(known);
      const missing = used.flatMap(({ file, exact, prefixes }) => [
        ...exact.filter((key) => !knownSet.has(key) && !known.some((leaf) => leaf.startsWith(`${key}.`))).map((key) => `${file}: ${key}`),
        ...prefixes.filter((prefix) => !known.some((leaf) => leaf.startsWith(prefix))).map((prefix) => `${file}: ${prefix}…`),
      ]);
      expect(missing, locale).toEqual([]);
    }
  });
});
