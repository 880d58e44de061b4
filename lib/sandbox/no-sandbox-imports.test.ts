import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repositoryRoot } from '../cli/run-admin-for-tests';

/** Production code (lib/, server/) never imports the upstream simulators in sandbox/; tests may drive them. */
function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

const IMPORT = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

describe('boundaries', () => {
  it('no production module under lib/ or server/ imports sandbox/', () => {
    const sandboxRoot = path.join(repositoryRoot, 'sandbox') + path.sep;
    const offenders: string[] = [];
    for (const file of [...sourceFiles(path.join(repositoryRoot, 'lib')), ...sourceFiles(path.join(repositoryRoot, 'server'))]) {
      for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
        const specifier = match[1] ?? match[2]!;
        const resolved = specifier.startsWith('@/') ? path.join(repositoryRoot, specifier.slice(2)) : specifier.startsWith('.') ? path.resolve(path.dirname(file), specifier) : undefined;
        if (resolved && (resolved + path.sep).startsWith(sandboxRoot)) offenders.push(`${path.relative(repositoryRoot, file)} → ${specifier}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
