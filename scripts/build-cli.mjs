/**
 * Compiles the entry points (admin, sandbox, worker, migrate, and serve: the server `npm start` runs) to plain
 * JavaScript in dist/cli, so that a command starts in node without compiling TypeScript first. `npm install`
 * (prepare), `npm run dev`, `npm run build` and the test suite run it; it takes well under a second.
 *
 * One bundle per entry point, split into chunks: a command's modules are loaded by dynamic import() only when it runs,
 * so `--help` loads none of them. Packages stay in node_modules. Plain JavaScript, so that it needs no compiler itself.
 */
import { build } from 'esbuild';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const outdir = path.join(root, 'dist', 'cli');
export const CLI_ENTRY_POINTS = ['admin', 'sandbox', 'worker', 'migrate', 'serve'];

/**
 * Modules find their files next to them (migrations, the sandbox token's artifact, createRequire): once bundled they
 * would look next to the bundle's chunk instead. Each module's import.meta.url and import.meta.dirname are rewritten to
 * name its source file again, relative to dist/cli, so the build still works after the checkout is moved.
 */
const sourceRelativeImportMeta = {
  name: 'source-relative-import-meta',
  setup(builder) {
    builder.onLoad({ filter: /\.tsx?$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta.')) return undefined;
      const fromOutdir = path.relative(outdir, args.path).split(path.sep).join('/');
      const fileUrl = `new URL(${JSON.stringify(fromOutdir)}, import.meta.url).href`;
      const contents = source
        .replaceAll('import.meta.url', `(${fileUrl})`)
        .replaceAll('import.meta.dirname', `decodeURIComponent(new URL('.', ${fileUrl}).pathname).replace(/\\/$/, '')`);
      return { contents, loader: args.path.endsWith('x') ? 'tsx' : 'ts' };
    });
  },
};

/**
 * Writes dist/cli from the sources; the test suite calls it too, so tests always run the current code. A file whose
 * content is already there is left alone and a changed one is replaced whole (written beside, then renamed): a
 * command started meanwhile by another run in this checkout (CI's second pass, a browser test) never reads a
 * half-written or missing chunk. Chunks of an earlier build that this one has not made are removed.
 */
export async function buildCli() {
  const { outputFiles } = await build({
    absWorkingDir: root,
    entryPoints: CLI_ENTRY_POINTS.map((name) => ({ in: `scripts/${name}.ts`, out: name })),
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    plugins: [sourceRelativeImportMeta],
    logLevel: 'warning',
    write: false,
  });
  const made = new Set();
  for (const file of outputFiles) {
    made.add(path.resolve(file.path));
    const current = await readFile(file.path).catch(() => undefined);
    if (current && Buffer.compare(current, file.contents) === 0) continue;
    await mkdir(path.dirname(file.path), { recursive: true });
    const beside = `${file.path}.${process.pid}.tmp`;
    await writeFile(beside, file.contents);
    await rename(beside, file.path);
  }
  const existing = await readdir(outdir, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const entry of existing) {
    const full = path.resolve(entry.parentPath ?? entry.path, entry.name);
    if (entry.isFile() && !made.has(full) && !full.endsWith('.tmp')) await rm(full, { force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  await buildCli();
  console.log(`built dist/cli (${CLI_ENTRY_POINTS.join(', ')}) in ${Math.round(performance.now() - started)} ms`);
}
