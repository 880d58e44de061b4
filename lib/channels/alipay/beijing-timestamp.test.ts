import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../../db/client';
import { orders } from '../../db/schema';
import { findBoundCredential } from '../../credentials/find-bound-credential';
import { findAlipayCheckout } from './checkout-view';
import { alipaySubmit, anAlipayMerchant } from '../../../test/alipay-sandbox';
import { SUBMIT, startSandboxTestBed } from '../../../test/beds/sandboxes';
import { queryAlipayTrade } from './client';
import { alipayConfig } from './config';

/**
 * Alipay reads the common `timestamp` as Beijing time and refuses a request more than 30 minutes from it. The host's
 * zone must not matter: the same code runs here under other zones (Node applies a TZ set at run time).
 */
let bed: Awaited<ReturnType<typeof startSandboxTestBed>>;
let merchant: Awaited<ReturnType<typeof anAlipayMerchant>>;
const hostZone = process.env.TZ;

/** Beijing wall-clock time now, formatted by the platform's own time-zone data (not by the code under test). */
const beijingNow = () => new Date().toLocaleString('sv-SE', { timeZone: 'Asia/Shanghai' });
const secondsOf = (text: string) => new Date(`${text.replace(' ', 'T')}Z`).getTime() / 1000;

beforeAll(async () => {
  bed = await startSandboxTestBed();
  merchant = await anAlipayMerchant();
});
afterEach(() => {
  if (hostZone === undefined) delete process.env.TZ;
  else process.env.TZ = hostZone;
});
afterAll(() => bed.close());

describe.each(['UTC', 'America/Los_Angeles'])('the Alipay adapter on a host with TZ=%s', (zone) => {
  it('signs the checkout\'s page-pay request with Beijing time, and the gateway accepts it; alipay.trade.query is accepted too', async () => {
    process.env.TZ = zone;
    expect(new Date().getTimezoneOffset()).not.toBe(-480); // the zone really is not Beijing's

    const { json } = await bed.app.signedPost(SUBMIT, alipaySubmit(merchant.appId), merchant.appSecret);
    expect(json.code).toBe(0);
    const checkout = await findAlipayCheckout(getDb(), json.data.payUrl.split('/pay/')[1]);
    const timestamp = new URL(checkout!.gatewayUrl!).searchParams.get('timestamp')!;
    expect(Math.abs(secondsOf(timestamp) - secondsOf(beijingNow()))).toBeLessThanOrEqual(5);

    const answer = await fetch(checkout!.gatewayUrl!, { redirect: 'manual' });
    expect(answer.status).toBe(303);

    const [order] = await getDb().select().from(orders).where(eq(orders.orderNo, json.data.platformOrderNo));
    const credential = await findBoundCredential(getDb(), order!);
    expect(await queryAlipayTrade(alipayConfig(), credential!, order!.orderNo)).toMatchObject({ found: true, status: 'WAIT_BUYER_PAY' });
  });
});
