import { describe, expect, it } from 'vitest';
import { sign } from '../lib/signing';
import { parseRequestFields } from '../lib/validation/request-fields';
import { EXAMPLE_RUNTIMES } from './example-runtimes';
import { runExample } from './run-example';

const APP_SECRET = '9f2c4e7a1b3d5f60718293a4b5c6d7e8';
const LONG_ATTACH = 'order=42&note=长 text+more/'.repeat(40).slice(0, 1024);

/**
 * The signature lab: bodies as a merchant sends them (`json`), and the same fields as text (`form`, what the
 * examples sign: a JSON number is its text, an empty or null field is left out or sent empty). The service reads the
 * body with its own parser and signs it with lib/signing; every example must get the same signature.
 */
const CASES: { title: string; json: string; form: [string, string][] }[] = [
  { title: 'the contract page example', json: '{"appId":"mch_YOUR_APP_ID","merchantOrderNo":"ORDER-1"}', form: [['appId', 'mch_YOUR_APP_ID'], ['merchantOrderNo', 'ORDER-1']] },
  { title: 'an empty field is left out', json: '{"appId":"mch_1","merchantOrderNo":"E-1","attach":""}', form: [['appId', 'mch_1'], ['merchantOrderNo', 'E-1'], ['attach', '']] },
  { title: 'a missing field', json: '{"appId":"mch_1","merchantOrderNo":"E-1"}', form: [['appId', 'mch_1'], ['merchantOrderNo', 'E-1']] },
  { title: 'null is empty', json: '{"appId":"mch_1","merchantOrderNo":"E-1","attach":null}', form: [['appId', 'mch_1'], ['merchantOrderNo', 'E-1']] },
  { title: '"0" is a value', json: '{"appId":"mch_1","merchantOrderNo":"Z-1","attach":"0","chainType":"0"}', form: [['appId', 'mch_1'], ['merchantOrderNo', 'Z-1'], ['attach', '0'], ['chainType', '0']] },
  {
    title: 'Unicode product name',
    json: '{"appId":"mch_1","merchantOrderNo":"U-1","productName":"VIP 会员 · café ✓ 🎉"}',
    form: [['appId', 'mch_1'], ['merchantOrderNo', 'U-1'], ['productName', 'VIP 会员 · café ✓ 🎉']],
  },
  {
    title: 'numbers and booleans sent as JSON values are signed as their JSON text',
    json: '{"appId":"mch_1","merchantOrderNo":"N-1","amount":12.50,"chainType":1,"credentialId":7,"flag":true}',
    form: [['appId', 'mch_1'], ['merchantOrderNo', 'N-1'], ['amount', '12.50'], ['chainType', '1'], ['credentialId', '7'], ['flag', 'true']],
  },
  {
    title: '+, spaces, & and = in a value are signed raw, never URL-encoded',
    json: '{"appId":"mch_1","merchantOrderNo":"P-1","attach":"a+b c&d=e%20f"}',
    form: [['appId', 'mch_1'], ['merchantOrderNo', 'P-1'], ['attach', 'a+b c&d=e%20f']],
  },
  { title: 'a very long attach', json: JSON.stringify({ appId: 'mch_1', merchantOrderNo: 'L-1', attach: LONG_ATTACH }), form: [['appId', 'mch_1'], ['merchantOrderNo', 'L-1'], ['attach', LONG_ATTACH]] },
  {
    title: 'ASCII order: upper case before lower case, payType before pay_usdt',
    json: '{"pay_usdt":"1.00","payType":"USDT","appId":"mch_1","Zone":"z","merchantOrderNo":"S-1"}',
    form: [['pay_usdt', '1.00'], ['payType', 'USDT'], ['appId', 'mch_1'], ['Zone', 'z'], ['merchantOrderNo', 'S-1']],
  },
];

const serviceSignatures = CASES.map((lab) => sign(parseRequestFields(lab.json), APP_SECRET));
const formLines = CASES.map((lab) => new URLSearchParams(lab.form).toString()).join('\n') + '\n';

describe('signature lab', () => {
  it.each(CASES.map((lab, index) => ({ ...lab, index })))('the service reads "$title" as the text fields the examples sign', ({ form, index }) => {
    expect(sign(Object.fromEntries(form), APP_SECRET)).toBe(serviceSignatures[index]);
  });

  it('an empty, a missing and a null field sign the same; "0" does not vanish', () => {
    expect(new Set(serviceSignatures.slice(1, 4)).size).toBe(1);
    expect(serviceSignatures[4]).not.toBe(sign({ appId: 'mch_1', merchantOrderNo: 'Z-1' }, APP_SECRET));
  });

  it.each(EXAMPLE_RUNTIMES)('the $label example signs every case as the service does', async (example) => {
    const run = await runExample(example.command(['sign']), { ...process.env, APP_SECRET }, formLines);
    expect(run.exitCode, run.stderr).toBe(0);
    const signatures = run.stdout.trim().split('\n');
    expect(Object.fromEntries(CASES.map((lab, index) => [lab.title, signatures[index]]))).toEqual(
      Object.fromEntries(CASES.map((lab, index) => [lab.title, serviceSignatures[index]])),
    );
  }, 120_000);
});
