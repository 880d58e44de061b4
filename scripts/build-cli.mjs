/**
 * Compiles the entry points (admin, sandbox, worker, migrate, and serve: the server `npm start` runs) to plain
 * JavaScript in dist/cli, so that a command starts in node without compiling TypeScript first. `npm install`
 * (prepare), `npm run dev`, `npm run build` and the test suite run it; it takes well under a second.
 *
 * One bundle per entry point, split into chunks: a command's modules are loaded by dynamic import() only when it runs,
 * so `--help` loads none of them. Packages stay in node_modules. Plain JavaScript, so that it needs no compiler itself.
 */
import { build } from 'esbuild';
import { readFile, rm } from 'node:fs/promises';
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

/** Writes dist/cli afresh from the sources; the test suite calls it too, so tests always run the current code. */
export async function buildCli() {
  await rm(outdir, { recursive: true, force: true }); // no chunk of an earlier build stays behind
  await build({
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
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  await buildCli();
  console.log(`built dist/cli (${CLI_ENTRY_POINTS.join(', ')}) in ${Math.round(performance.now() - started)} ms`);
}
