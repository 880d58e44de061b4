/**
 * The merchant examples in examples/<language>/: one program per language, standard library only, that signs and
 * submits an order on each channel, queries, closes and refunds orders, queries refunds and receives the notifications.
 * CI runs each with its own runtime (examples/example-suite.ts), and the portal's API reference shows these very files.
 */
export type ExampleProgramLanguage = 'php' | 'java' | 'python' | 'go' | 'node';

export interface ExampleProgram {
  language: ExampleProgramLanguage;
  label: string;
  /** From the repository's root. */
  file: string;
  /** How to run it, with the file's own directory as the working directory. */
  run: string;
}

export const EXAMPLE_PROGRAMS: readonly ExampleProgram[] = [
  { language: 'php', label: 'PHP', file: 'examples/php/payment.php', run: 'php payment.php submit USDT ORDER-1 10.50 https://merchant.example/notify' },
  { language: 'java', label: 'Java', file: 'examples/java/Payment.java', run: 'java Payment.java submit USDT ORDER-1 10.50 https://merchant.example/notify' },
  { language: 'python', label: 'Python', file: 'examples/python/payment.py', run: 'python3 payment.py submit USDT ORDER-1 10.50 https://merchant.example/notify' },
  { language: 'go', label: 'Go', file: 'examples/go/payment.go', run: 'go run payment.go submit USDT ORDER-1 10.50 https://merchant.example/notify' },
  { language: 'node', label: 'Node', file: 'examples/node/payment.mjs', run: 'node payment.mjs submit USDT ORDER-1 10.50 https://merchant.example/notify' },
];

/** The placeholders the programs fall back to when BASE_URL and APP_ID are not set; the portal fills them in. */
export const EXAMPLE_APP_ID_PLACEHOLDER = 'mch_YOUR_APP_ID';
export const EXAMPLE_BASE_URL_PLACEHOLDER = 'http://localhost:3000';
