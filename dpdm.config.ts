/**
 * The import-cycle check of `npm run lint` (`dpdm`, which reads this file): it fails on any cycle among the source
 * files, the tests, e2e, bench and the test helpers apart. Imports run one way (transports → channel registry →
 * channels → domain → db; docs/channels/shared.md): in a cycle no module can be read, tested or changed alone, and
 * the order modules load in decides what is undefined at start-up.
 *
 * dpdm because it counts what a cycle is made of here: type-only imports (a channel naming a console type closed a
 * cycle as surely as a value import) and import() (a command's lazily loaded modules are still its dependencies).
 * ESLint's import/no-cycle skips type-only imports; madge finds the same cycles but installs a parser for every
 * stylesheet language; dpdm parses with the project's own TypeScript and resolves tsconfig.json's `@/` paths.
 */
const config = {
  files: ['{lib,app,components,server,scripts,sandbox,pages,i18n}/**/*.{ts,tsx,mjs}'],
  exclude: '(\\.test\\.tsx?$|(^|/)(e2e|bench|test)/|node_modules|\\.next/|dist/)',
  exitCode: 'circular:1',
  tree: false,
  warning: false,
  progress: false,
};

export default config;
