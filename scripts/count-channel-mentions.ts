/**
 * Counts, per channel, the non-test source files outside that channel's own places that name it: issue 15's
 * measure of how spread out a channel is (target: at most 5 each). A channel's own places are lib/channels/<x>/,
 * sandbox/<x>/, any app/**\/<x>/ folder or (<x>)/ route group and components/checkout/<x>*; a USDT network's folders (tron, evm) are USDT's.
 * Names are whole words, case-insensitive (USDT: usdt, tron, trc20). Applied migrations are history that cannot be
 * edited, so they are counted apart. Comments are not counted (a comment may say which channel a rule came from);
 * the code, strings included, is. The merchants' example programs (examples/) are not the service's code.
 * Run: npx tsx scripts/count-channel-mentions.ts [--files]
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** `ignored`: identifiers that spell the name but mean something else, matched exactly (case-sensitive) and said so in the output. */
const CHANNELS: Record<string, { folders: string[]; words: RegExp; ignored?: { pattern: RegExp; why: string } }> = {
  usdt: { folders: ['usdt', 'tron', 'evm'], words: /\b(usdt|tron|trc20)\b/i },
  alipay: { folders: ['alipay'], words: /\balipay\b/i, ignored: { pattern: /\baliPay\b/g, why: "YHT's pay method identifier `aliPay` (not the ALIPAY channel) is not counted" } },
  wechat: { folders: ['wechat'], words: /\bwechat\b/i },
  yht: { folders: ['yht'], words: /\byht\b/i },
};

const SOURCE = /\.(ts|tsx|mts|mjs|js|cjs|sql)$/;
const TEST = /(\.test\.|\.spec\.|^e2e\/|^test\/|^bench\/|\/fixtures?\/)/;
const MIGRATION = /^lib\/db\/migrations\//;
/** This script names every channel by design. */
const SELF = 'scripts/count-channel-mentions.ts';

function sourceFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { encoding: 'utf8' });
  return out.split('\n').filter((file) => SOURCE.test(file) && !TEST.test(file) && !file.startsWith('lib/db/migrations/meta/') && file !== SELF);
}

function ownPlace(file: string, folder: string): boolean {
  return (
    file.startsWith(`lib/channels/${folder}/`) ||
    file.startsWith(`sandbox/${folder}/`) ||
    // A route group named for the channel, app/**/(<x>)/, is its own folder too: the URLs stay, the files gather.
    (file.startsWith('app/') && file.split('/').slice(0, -1).some((part) => part === folder || part === `(${folder})`)) ||
    file.startsWith(`components/checkout/${folder}`)
  );
}

/**
 * The text without its comments: block comments, line comments (not a `//` inside a string or a URL, which follow a
 * quote or a colon) and SQL's `--` lines. Close enough for a count: no source file here hides a comment marker in a
 * string that this would cut at.
 */
function withoutComments(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1')
    .replace(/^\s*--.*$/gm, '');
}

const files = sourceFiles()
  .filter((file) => !file.startsWith('examples/'))
  .map((file) => ({ file, text: withoutComments(readFileSync(file, 'utf8')) }));
const listFiles = process.argv.includes('--files');
for (const [channel, { folders, words, ignored }] of Object.entries(CHANNELS)) {
  const naming = files
    .filter(({ file, text }) => !folders.some((folder) => ownPlace(file, folder)) && words.test(ignored ? text.replace(ignored.pattern, '') : text))
    .map(({ file }) => file);
  const code = naming.filter((file) => !MIGRATION.test(file));
  console.log(`${channel}: ${code.length} (+ ${naming.length - code.length} applied migrations)${ignored ? `; ${ignored.why}` : ''}`);
  if (listFiles) for (const file of naming) console.log(`  ${file}`);
}
