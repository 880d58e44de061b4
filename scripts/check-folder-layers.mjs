/**
 * The folder check of `npm run lint`: the top-level folders of lib/ import one way (docs/channels/shared.md, "Which
 * module imports which"). dpdm finds cycles between files; this finds two folders that import each other, which
 * dpdm misses whenever the files involved differ (lib/a/x → lib/b/y and lib/b/z → lib/a/w): then neither folder
 * can be read, tested or moved without the other, and the next import closes a file cycle.
 *
 * Counted: the non-test source files of lib/ (not *.test.ts(x)), their static imports and re-exports (`import type`
 * too: a type names its folder as surely as a value), side-effect imports and import('…'), relative or `@/lib/…`.
 * A pair is allowed only when it is listed below with its reason, and only through the files listed there: any
 * other pair, or another file on the allowed side, fails (exit 1) naming the pair and the imports on each side. An
 * allowance no longer needed fails too, so that the list stays the truth.
 *
 * Usage: node scripts/check-folder-layers.mjs [--root <repository>]   (the repository this script is in by default)
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The pairs allowed to import each other: `upper` imports `lower` freely; `lower` imports only the `through` files of
 * `upper` (paths under lib/), each a module that imports nothing, so no code of `upper` loads below it.
 */
export const ALLOWED_PAIRS = [
  {
    upper: 'channels',
    lower: 'db',
    through: ['channels/channel-names.ts'],
    why: "the CHECK constraints of orders.channel and upstream_credentials.channel list the channels' names (lib/db/schema), written once in lib/channels/channel-names.ts beside the registry typed against them",
  },
  {
    upper: 'channels',
    lower: 'observability',
    through: ['channels/channel-names.ts'],
    why: "a metric's channel label is one of the channels' names or 'unknown', whatever a caller sent, so that the series stay bounded",
  },
];

const SOURCE = /\.(?:ts|tsx|mts|mjs|js)$/;
const TEST = /\.test\.tsx?$/;
const RESOLVED_ENDINGS = ['', '.ts', '.tsx', '.mts', '.mjs', '.js', '/index.ts', '/index.tsx'];
// from '…' after import/export (type-only included), a side-effect import '…', and import('…').
const SPECIFIERS = [/\b(?:import|export)\s[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s+['"]([^'"]+)['"]/g, /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g];

function sourceFiles(directory) {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' || entry.name === 'node_modules' ? [] : sourceFiles(full);
    return SOURCE.test(entry.name) && !TEST.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

function resolveTarget(repository, file, specifier) {
  const base = specifier.startsWith('@/') ? path.join(repository, specifier.slice(2)) : specifier.startsWith('.') ? path.resolve(path.dirname(file), specifier) : undefined;
  if (base === undefined) return undefined;
  const found = RESOLVED_ENDINGS.map((ending) => base + ending).find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
  return found ?? base; // unresolved (a generated file, a typo tsc reports): still counted by its folder
}

/** lib/<folder>/… → folder; a file directly in lib/ (lib/clock.ts) is a unit of its own. */
function folderOf(libRoot, file) {
  return path.relative(libRoot, file).split(path.sep)[0];
}

/** Every import from one top-level folder of lib/ into another: `from → to → [{ file, target }]` (paths under lib/). */
export function folderImports(repository) {
  const libRoot = path.join(repository, 'lib');
  const imports = new Map();
  for (const file of sourceFiles(libRoot)) {
    const text = readFileSync(file, 'utf8');
    for (const pattern of SPECIFIERS) {
      for (const match of text.matchAll(pattern)) {
        const target = resolveTarget(repository, file, match[1]);
        if (!target || !target.startsWith(libRoot + path.sep)) continue;
        const from = folderOf(libRoot, file);
        const to = folderOf(libRoot, target);
        if (from === to) continue;
        if (!imports.has(from)) imports.set(from, new Map());
        const edges = imports.get(from);
        if (!edges.has(to)) edges.set(to, []);
        edges.get(to).push({ file: path.relative(libRoot, file), target: path.relative(libRoot, target) });
      }
    }
  }
  return imports;
}

/** The problems of a repository's lib/: pairs importing each other that are not allowed, and unused allowances. */
export function folderLayerProblems(repository, allowed = ALLOWED_PAIRS) {
  const imports = folderImports(repository);
  const edgesOf = (from, to) => imports.get(from)?.get(to) ?? [];
  const describe = (edges) => [...new Set(edges.map((edge) => `    lib/${edge.file} → lib/${edge.target}`))].join('\n');
  const problems = [];
  const pairs = [];
  for (const [from, targets] of imports) {
    for (const to of targets.keys()) if (from < to && edgesOf(to, from).length > 0) pairs.push([from, to]);
  }
  for (const [a, b] of pairs.sort()) {
    const allowance = allowed.find((entry) => (entry.upper === a && entry.lower === b) || (entry.upper === b && entry.lower === a));
    if (!allowance) {
      problems.push(`lib/${a} and lib/${b} import each other; one of them must go one way (a port below, the type moved to its owner, or composition above):\n  ${a} → ${b}:\n${describe(edgesOf(a, b))}\n  ${b} → ${a}:\n${describe(edgesOf(b, a))}`);
      continue;
    }
    const upward = edgesOf(allowance.lower, allowance.upper).filter((edge) => !allowance.through.includes(edge.target));
    if (upward.length > 0) {
      problems.push(`lib/${allowance.lower} may import lib/${allowance.upper} only through ${allowance.through.map((file) => `lib/${file}`).join(', ')} (${allowance.why}), not:\n${describe(upward)}`);
    }
  }
  for (const allowance of allowed) {
    const stillThere = pairs.some(([a, b]) => [a, b].includes(allowance.upper) && [a, b].includes(allowance.lower));
    if (!stillThere) problems.push(`lib/${allowance.upper} and lib/${allowance.lower} no longer import each other: remove their allowance from scripts/check-folder-layers.mjs`);
  }
  return { problems, pairs };
}

function rootArgument(argv) {
  const index = argv.indexOf('--root');
  if (index === -1) return path.resolve(import.meta.dirname, '..');
  if (!argv[index + 1]) throw new Error('usage: node scripts/check-folder-layers.mjs [--root <repository>]');
  return path.resolve(argv[index + 1]);
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const { problems, pairs } = folderLayerProblems(rootArgument(process.argv.slice(2)));
  if (problems.length > 0) {
    process.stderr.write(`folder layers: ${problems.length} problem(s) (docs/channels/shared.md, "Which module imports which")\n${problems.join('\n')}\n`);
    process.exit(1);
  }
  process.stdout.write(`folder layers: lib/'s folders import one way, apart from ${pairs.map(([a, b]) => `${a} <-> ${b}`).join(', ') || 'none'} (allowed, see scripts/check-folder-layers.mjs)\n`);
}
