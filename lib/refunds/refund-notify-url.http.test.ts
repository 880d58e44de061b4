import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import { findAlipayCheckout } from '../channels/alipay/checkout-view';
import { paySandboxTrade } from '../../sandbox/alipay/pay';
import { alipaySubmit, anAlipayMerchant } from '../../test/alipay-sandbox';
import { SUBMIT, startSandboxTestBed } from '../../test/beds/sandboxes';
import { PRIVATE_HOST_FORMS } from '../../test/private-host-forms';

/**
 * A refund's notifyUrl keeps the order submit's rule: where the notifier refuses private networks (production; the
 * test environment stands in for it) a private address or internal name is refused at submit with 1001 naming
 * notifyUrl. The probe's refund answered `code 0, status succeeded` for each and its notice retried for days.
 */
const REFUND_SUBMIT = '/v1/api/open/refund/submit';
const PROBE_URLS = [
  'http://169.254.169.254/latest/meta-data/',
  'http://127.0.0.1:3000/refund',
  'http://[::1]/refund',
  'http://10.0.0.8/refund',
  'http://192.168.1.1/refund',
  'http://100.64.0.1/refund',
  'http://localhost/refund',
  'http://metadata.google.internal/computeMetadata/v1/',
];

let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
let merchant: Awaited<ReturnType<typeof anAlipayMerchant>>;
let order: { merchantOrderNo: string };
let sequence = 0;
const savedAllow = process.env.NOTIFY_ALLOW_PRIVATE_NETWORKS;

beforeAll(async () => {
  bed = await startSandboxTestBed();
  merchant = await anAlipayMerchant();
  const fields = alipaySubmit(merchant.appId, { notifyUrl: 'https://merchant.example/notify', amount: '50.00' });
  const { json } = await bed.app.signedPost(SUBMIT, fields, merchant.appSecret);
  expect(json.code).toBe(0);
  const checkout = await findAlipayCheckout(getDb(), json.data.payUrl.split('/pay/')[1]);
  expect((await fetch(checkout!.gatewayUrl!, { redirect: 'manual' })).status).toBe(303);
  await paySandboxTrade(getDb(), { outTradeNo: json.data.platformOrderNo });
  order = { merchantOrderNo: fields.merchantOrderNo as string };
  process.env.NOTIFY_ALLOW_PRIVATE_NETWORKS = 'false';
});
afterEach(() => {
  process.env.NOTIFY_ALLOW_PRIVATE_NETWORKS = 'false';
});
afterAll(async () => {
  process.env.NOTIFY_ALLOW_PRIVATE_NETWORKS = savedAllow;
  await bed.close();
});

function refund(notifyUrl: string | undefined) {
  sequence += 1;
  const fields: Record<string, string> = { appId: merchant.appId, merchantOrderNo: order.merchantOrderNo, merchantRefundNo: `RNU-${sequence}-${Date.now()}`, refundAmount: '0.01' };
  if (notifyUrl !== undefined) fields.notifyUrl = notifyUrl;
  return bed.app.signedPost(REFUND_SUBMIT, fields, merchant.appSecret).then(({ json }) => json);
}

describe('refund notifyUrl on a private network', () => {
  it.each(PROBE_URLS)('the probe\'s %s is refused at submit with 1001 naming notifyUrl', async (url) => {
    const answer = await refund(url);
    expect(answer).toMatchObject({ code: 1001, data: null });
    expect(answer.message).toMatch(/^notifyUrl must be reachable from the internet: destination .* is (not a public address \(.+\)|an internal host name)$/);
  });

  it(`every form of a private host the order submit refuses (${PRIVATE_HOST_FORMS.length}) is refused here too`, async () => {
    for (const form of PRIVATE_HOST_FORMS) expect((await refund(`http://${form}:4455/n`)).code, form).toBe(1001);
  });

  it('a public notifyUrl, or none, is accepted and refunds as before; development allowing private networks allows them', async () => {
    expect(await refund('https://merchant.example/refund-notify')).toMatchObject({ code: 0, data: { status: 'succeeded' } });
    expect(await refund(undefined)).toMatchObject({ code: 0 });
    process.env.NOTIFY_ALLOW_PRIVATE_NETWORKS = 'true';
    expect(await refund('http://127.0.0.1:4000/refund')).toMatchObject({ code: 0 });
  });
});
