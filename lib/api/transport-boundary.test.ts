import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const LIB = path.resolve(__dirname, '..');
const API = path.join(LIB, 'api');

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(entry.name) ? [full] : [];
  });
}

/** Every module a file imports or re-exports, resolved to a path (or the specifier, for packages and aliases). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((match) => match[1]!);
  return specifiers.map((specifier) =>
    specifier.startsWith('.') ? path.resolve(path.dirname(file), specifier) : specifier.replace(/^@\//, `${path.dirname(LIB)}/`),
  );
}

/** `lib/<folder>/…` imports of the non-test files under `from`, as `file imports target` (paths from lib/). */
function importsInto(from: string, folders: readonly string[]): string[] {
  const targets = folders.map((folder) => path.join(LIB, folder));
  const files = sourceFiles(path.join(LIB, from)).filter((file) => !/\.test\.tsx?$/.test(file));
  expect(files.length).toBeGreaterThan(0);
  return files.flatMap((file) =>
    importsOf(file)
      .filter((target) => targets.some((folder) => target === folder || target.startsWith(folder + path.sep) || target.startsWith(`${folder}.`)))
      .map((target) => `${path.relative(LIB, file)} imports ${path.relative(LIB, target)}`),
  );
}

describe('lib/api is the open API transport only', () => {
  it('no lib/ file outside lib/api imports lib/api (the domain throws DomainError, never a transport error)', () => {
    const files = sourceFiles(LIB).filter((file) => !file.startsWith(API + path.sep));
    expect(files.length).toBeGreaterThan(100);
    const offenders = files.flatMap((file) =>
      importsOf(file)
        .filter((target) => target === API || target.startsWith(API + path.sep))
        .map((target) => `${path.relative(LIB, file)} imports ${path.relative(LIB, target)}`),
    );
    expect(offenders).toEqual([]);
  });
});

describe('the domain is handed its channel and knows no transport', () => {
  it('no order, credential or notification module imports the channels or their registry: the caller passes the channel in', () => {
    expect(['orders', 'credentials', 'notifications'].flatMap((domain) => importsInto(domain, ['channels']))).toEqual([]);
  });

  it("lib/orders imports neither the open API's envelope (signed-request.ts) nor its field parsers", () => {
    expect(importsInto('orders', ['validation/signed-request', 'validation/field-rules', 'validation/request-fields', 'api'])).toEqual([]);
  });
});
