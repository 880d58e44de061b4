import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTypescript from 'eslint-config-next/typescript';

const config = [
  ...nextVitals,
  ...nextTypescript,
  { ignores: ['.next/**', '.data/**', 'dist/**', 'node_modules/**', 'lib/db/migrations/**', 'next-env.d.ts', 'test-results/**', 'playwright-report/**'] },
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  {
    // The domain knows no transport and no pages: lib never imports app/ or Next.js.
    files: ['lib/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@/app/*', '../app/*', '../../app/*', 'next', 'next/*'], message: 'lib/** is transport-free' }] }],
    },
  },
  {
    // Components are handed their server actions by the pages: they never import app/.
    files: ['components/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['@/app/*', '../app/*', '../../app/*'], message: 'pages pass server actions to components as props' }] }],
    },
  },
];
export default config;
