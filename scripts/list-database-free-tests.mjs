/**
 * Prints the test files a TEST_DATABASE_USE_REPORT file (test/database-use.ts) shows never using the database, as
 * the entries of test/database-free-files.ts: `node scripts/list-database-free-tests.mjs <report>`.
 */
import { readFileSync } from 'node:fs';

const report = process.argv[2];
if (!report) {
  console.error('usage: node scripts/list-database-free-tests.mjs <report written by TEST_DATABASE_USE_REPORT>');
  process.exit(2);
}
const used = new Map();
for (const line of readFileSync(report, 'utf8').split('\n').filter(Boolean)) {
  const entry = JSON.parse(line);
  used.set(entry.file, (used.get(entry.file) ?? false) || entry.used);
}
for (const file of [...used.keys()].filter((name) => !used.get(name)).sort()) console.log(`  '${file}',`);
