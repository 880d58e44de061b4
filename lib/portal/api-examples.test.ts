import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { aMerchant, receivingAddresses } from '../../test/factories';
import { startTestApp, type TestApp } from '../../test/open-api-client';
import { contractSignature } from '../../test/beds/contract-signer';
import { buildApiExamples, EXAMPLE_LANGUAGES, SECRET_PLACEHOLDER, type CodeExample } from './api-examples';

const APP_ID = 'mch_0123456789abcdef';
const BASE_URL = 'https://pay.example.com';
const examples = buildApiExamples({ appId: APP_ID, baseUrl: BASE_URL });
const all: CodeExample[] = [...examples.submit, ...examples.query, ...examples.close, ...examples.notification];
const scratch = mkdtempSync(path.join(os.tmpdir(), 'api-examples-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function example(operation: keyof typeof examples, language: CodeExample['language']): string {
  return examples[operation].find((entry) => entry.language === language)!.code;
}

let moduleCounter = 0;
/** Transpiles a TypeScript snippet and imports it as an ES module, with `fetch` answered by `fakeFetch`. */
async function runTypeScript(code: string, fakeFetch: typeof fetch): Promise<Record<string, any>> {
  const { outputText } = ts.transpileModule(code, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
  moduleCounter += 1;
  const file = path.join(scratch, `snippet-${moduleCounter}.mjs`);
  writeFileSync(file, outputText);
  const realFetch = globalThis.fetch;
  globalThis.fetch = fakeFetch;
  try {
    return await import(pathToFileURL(file).href);
  } finally {
    globalThis.fetch = realFetch;
  }
}

describe('API reference examples', () => {
  it('has submit, query, close and notification in curl, TypeScript, PHP, Python and Java', () => {
    for (const operation of ['submit', 'query', 'close', 'notification'] as const) {
      expect(examples[operation].map((entry) => entry.language)).toEqual(EXAMPLE_LANGUAGES.map((entry) => entry.language));
    }
  });

  it("carries the merchant's AppID and a clearly marked placeholder secret, never a real one", () => {
    for (const entry of all) {
      expect(entry.code, `${entry.operation} ${entry.language}`).toContain(APP_ID);
      expect(entry.code).toContain(SECRET_PLACEHOLDER);
      expect(entry.code).toMatch(/placeholder: put your AppSecret here/);
    }
    expect(buildApiExamples({ appId: 'mch_other', baseUrl: BASE_URL }).submit[0]!.code).not.toContain(APP_ID);
  });

  it('each language computes the signature by the contract steps', () => {
    const steps: Record<CodeExample['language'], RegExp[]> = {
      curl: [/SIGN_TEXT="appId=\$APP_ID&attach=user=42&chainType=1&merchantOrderNo=ORDER-20260101-0001&notifyUrl=https:\/\/merchant\.example\/notify&payType=USDT&pay_usdt=10\.50&productName=VIP&redirectUrl=https:\/\/merchant\.example\/return&appsecret=\$APP_SECRET"/, /md5sum/, /tr 'a-f' 'A-F'/, /"signature":"'"\$SIGNATURE"'"/],
      typescript: [/name !== 'signature'/, /!== ''/, /\.sort\(\(a, b\) => \(a < b \? -1 : a > b \? 1 : 0\)\)/, /\.join\('&'\)/, /&appsecret=/, /createHash\('md5'\)/, /toUpperCase\(\)/],
      php: [/unset\(\$fields\['signature'\]\)/, /\$value !== ''/, /ksort\(\$fields, SORT_STRING\)/, /implode\('&', \$pairs\)/, /'&appsecret='/, /strtoupper\(md5\(/],
      python: [/name != "signature"/, /value != ""/, /sorted\(/, /"&"\.join/, /"&appsecret="/, /hashlib\.md5\(text\.encode\("utf-8"\)\)\.hexdigest\(\)\.upper\(\)/],
      java: [/equals\("signature"\)/, /value\.isEmpty\(\)/, /new TreeMap<>\(fields\)/, /append\('&'\)/, /"&appsecret="/, /MessageDigest\.getInstance\("MD5"\)/, /%02X/],
    };
    for (const operation of ['submit', 'query'] as const) {
      for (const entry of examples[operation]) {
        for (const step of steps[entry.language]) {
          if (entry.language === 'curl' && operation === 'query') continue; // its own text, checked below
          expect(entry.code, `${operation} ${entry.language}: ${step}`).toMatch(step);
        }
      }
    }
    expect(example('query', 'curl')).toContain('SIGN_TEXT="appId=$APP_ID&merchantOrderNo=ORDER-20260101-0001&appsecret=$APP_SECRET"');
    // The receivers verify in constant time and acknowledge with "success".
    expect(example('notification', 'typescript')).toMatch(/timingSafeEqual/);
    expect(example('notification', 'php')).toMatch(/hash_equals\(sign\(\$form, \$appSecret\)/);
    expect(example('notification', 'python')).toMatch(/hmac\.compare_digest/);
    expect(example('notification', 'java')).toMatch(/MessageDigest\.isEqual/);
    for (const language of ['typescript', 'php', 'python', 'java'] as const) expect(example('notification', language)).toMatch(/success/);
  });

  it('the TypeScript signing function, executed, agrees with the contract algorithm', async () => {
    let sent: { url: string; body: Record<string, string> } | undefined;
    const quiet = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    const snippet = await runTypeScript(example('submit', 'typescript'), (async (url: string, init: RequestInit) => {
      sent = { url: String(url), body: JSON.parse(String(init.body)) };
      return new Response(JSON.stringify({ code: 0, message: 'success', data: {} }));
    }) as typeof fetch);
    quiet.mockRestore();
    expect(sent!.url).toBe(`${BASE_URL}/v1/api/open/order/submit`);
    expect(sent!.body.appId).toBe(APP_ID);
    expect(sent!.body.signature).toBe(contractSignature(sent!.body, SECRET_PLACEHOLDER));

    const cases: Record<string, unknown>[] = [
      { b: '3', a: '1', B: '2', signature: 'X' },
      { appId: 'mch_1', attach: '', redirectUrl: null, note: undefined, amount: '12.50' },
      { appId: 'mch_1', productName: '商品 & more', n: 5, flag: true },
    ];
    for (const fields of cases) expect(snippet.sign(fields, '密钥')).toBe(contractSignature(fields, '密钥'));
  });

  it('the TypeScript notification receiver accepts a genuine notification and refuses a forged one', async () => {
    const code = example('notification', 'typescript').replace(/http\n {2}\.createServer[\s\S]*$/, '');
    const snippet = await runTypeScript(code, globalThis.fetch);
    const form = { appId: APP_ID, orderNo: 'U1', merchantOrderNo: 'M1', payType: 'USDT', pay_usdt: '10.50', status: 'PAID', payTime: '1767225600', tradeNo: '', attach: '' };
    const signature = contractSignature(form, SECRET_PLACEHOLDER);
    expect(snippet.verifyNotification({ ...form, signature }, SECRET_PLACEHOLDER)).toBe(true);
    expect(snippet.verifyNotification({ ...form, signature: signature.toLowerCase() }, SECRET_PLACEHOLDER)).toBe(true);
    expect(snippet.verifyNotification({ ...form, pay_usdt: '100.50', signature }, SECRET_PLACEHOLDER)).toBe(false);
    expect(snippet.verifyNotification(form, SECRET_PLACEHOLDER)).toBe(false);
  });

  it('the curl examples, run in a shell, send a correctly signed request and notification', () => {
    const run = (code: string) =>
      execFileSync('bash', ['-c', `curl() { printf '%s\\n' "$@"; }\n${code}`], { encoding: 'utf8' })
        .trim()
        .split('\n');
    const submitArgs = run(example('submit', 'curl'));
    const body = JSON.parse(submitArgs[submitArgs.indexOf('-d') + 1]!);
    expect(body.appId).toBe(APP_ID);
    expect(body.signature).toBe(contractSignature(body, SECRET_PLACEHOLDER));

    const notifyArgs = run(example('notification', 'curl'));
    const form = Object.fromEntries(
      notifyArgs
        .map((arg, index) => (notifyArgs[index - 1] === '--data-urlencode' ? arg : undefined))
        .filter((arg): arg is string => arg !== undefined)
        .map((arg) => [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]),
    );
    expect(form.appId).toBe(APP_ID);
    expect(form.signature).toBe(contractSignature(form, SECRET_PLACEHOLDER));
  });
});

function has(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Field sets that catch the usual mistakes: case-sensitive sort, `payType` before `pay_usdt`, empty fields, UTF-8. */
const SIGNING_CASES: Record<string, string>[] = [
  { b: '3', a: '1', B: '2', e: '', signature: 'X' },
  { appId: 'mch_1', pay_usdt: '10.50', payType: 'USDT', attach: '' },
  { appId: 'mch_1', productName: '商品 & more' },
];

describe('the other languages, where their tools are installed', () => {
  it.skipIf(!has('python3'))("Python's sign() agrees with the contract algorithm", () => {
    const program = `${example('submit', 'python').split('\nfields = {')[0]}\nimport sys\nfor case in json.loads(sys.argv[1]):\n    print(sign(case, "密钥"))\n`;
    const output = execFileSync('python3', ['-c', program, JSON.stringify(SIGNING_CASES)], { encoding: 'utf8' }).trim().split('\n');
    expect(output).toEqual(SIGNING_CASES.map((fields) => contractSignature(fields, '密钥')));
  });

  it.skipIf(!has('javac') || !has('java'))("Java's sign() compiles and agrees with the contract algorithm", () => {
    const dir = mkdtempSync(path.join(scratch, 'java-'));
    writeFileSync(path.join(dir, 'SubmitOrder.java'), example('submit', 'java'));
    writeFileSync(path.join(dir, 'NotifyReceiver.java'), example('notification', 'java'));
    const puts = SIGNING_CASES.map(
      (fields) =>
        `{ Map<String, String> f = new LinkedHashMap<>(); ${Object.entries(fields)
          .map(([name, value]) => `f.put(${JSON.stringify(name)}, ${JSON.stringify(value)});`)
          .join(' ')} System.out.println(SubmitOrder.sign(f, "密钥")); }`,
    );
    writeFileSync(path.join(dir, 'Probe.java'), `import java.util.*;\npublic class Probe { public static void main(String[] a) throws Exception {\n${puts.join('\n')}\n} }\n`);
    execFileSync('javac', ['-encoding', 'UTF-8', '-d', dir, ...['SubmitOrder', 'NotifyReceiver', 'Probe'].map((name) => path.join(dir, `${name}.java`))]);
    const output = execFileSync('java', ['-Dfile.encoding=UTF-8', '-Dstdout.encoding=UTF-8', '-cp', dir, 'Probe'], { encoding: 'utf8' }).trim().split('\n');
    expect(output).toEqual(SIGNING_CASES.map((fields) => contractSignature(fields, '密钥')));
  }, 60_000);
});

describe('the TypeScript examples against the service', () => {
  let app: TestApp;
  let merchant: Awaited<ReturnType<typeof aMerchant>>;
  beforeAll(async () => {
    app = await startTestApp();
    merchant = await aMerchant();
    await receivingAddresses(1);
  });
  afterAll(() => app.close());

  it('submit, query and close, with the real secret put in place of the placeholder, answer code 0', async () => {
    const own = buildApiExamples({ appId: merchant.appId, baseUrl: app.baseUrl });
    const withSecret = (code: string) => code.replace(JSON.stringify(SECRET_PLACEHOLDER), JSON.stringify(merchant.appSecret));
    const answers: any[] = [];
    const log = console.log;
    console.log = (value: unknown) => answers.push(value);
    try {
      await runTypeScript(withSecret(own.submit.find((entry) => entry.language === 'typescript')!.code), globalThis.fetch);
      await runTypeScript(withSecret(own.query.find((entry) => entry.language === 'typescript')!.code), globalThis.fetch);
      await runTypeScript(withSecret(own.close.find((entry) => entry.language === 'typescript')!.code), globalThis.fetch);
    } finally {
      console.log = log;
    }
    expect(answers[0]).toMatchObject({ code: 0, message: 'success', data: { merchantOrderNo: 'ORDER-20260101-0001' } });
    expect(answers[1]).toMatchObject({ code: 0, message: 'success', data: { orderNo: answers[0].data.orderNo } });
    expect(answers[2]).toMatchObject({ code: 0, message: 'success', data: { orderNo: answers[0].data.orderNo, status: '2' } });
  });
});
