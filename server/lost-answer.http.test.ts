import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '../lib/db/client';
import { addSandboxCredential } from '../lib/cli/credential-add-command';
import { aMerchant } from '../test/factories';
import { alipaySubmit } from '../test/alipay-sandbox';
import { yhtSubmit } from '../test/yht-sandbox';
import { SUBMIT, startSandboxTestBed, type SandboxTestBed } from '../test/beds/sandboxes';
import { databaseThroughProxy } from '../test/database-through-proxy';

/**
 * The channels whose orders are placed upstream first (ALIPAY, WECHAT, YHT): the database connection dies after the
 * order's transaction committed and before the service heard so (a TCP proxy drops the server's `COMMIT` answer and
 * cuts). The merchant gets 503 and retries with the same fields: the answer is the stored order, never a second one.
 * (USDT: server/database-outage.http.test.ts.)
 */
let database: Awaited<ReturnType<typeof databaseThroughProxy>>;
let bed: SandboxTestBed;
let merchant: Awaited<ReturnType<typeof aMerchant>>;

beforeAll(async () => {
  merchant = await aMerchant();
  for (const channel of ['ALIPAY', 'WECHAT'] as const) await addSandboxCredential(getDb(), { appId: merchant.appId, channel, approve: true, enable: true, actor: 'test' });
  database = await databaseThroughProxy();
  bed = await startSandboxTestBed();
});

afterAll(async () => {
  await bed.close();
  await database.close();
});

async function stored(merchantOrderNo: string): Promise<string[]> {
  const { rows } = await getDb().execute<{ order_no: string }>(sql`SELECT order_no FROM orders WHERE merchant_order_no = ${merchantOrderNo}`);
  return rows.map((row) => row.order_no);
}

const SUBMITS: Record<string, (appId: string) => Record<string, unknown>> = {
  ALIPAY: (appId) => alipaySubmit(appId),
  YHT: (appId) => yhtSubmit(appId),
  WECHAT: (appId) => ({ ...alipaySubmit(appId, { payType: 'WECHAT', payMethod: 'native', productDesc: undefined, attach: undefined }), merchantOrderNo: `LOST-WX-${Date.now()}` }),
};

describe('an answer lost after the order committed', () => {
  for (const [channel, fields] of Object.entries(SUBMITS)) {
    it(`${channel}: the submit answers 503, the order is stored, and the retry with the same fields answers that order`, async () => {
      const request = fields(merchant.appId);
      const cut = database.proxy.cutWhenServerSends('COMMIT');
      const first = await bed.app.signedPost(SUBMIT, request, merchant.appSecret);
      await cut;
      expect(first).toMatchObject({ status: 503, json: { code: 1000, message: 'service temporarily unavailable; retry later', data: null } });
      database.proxy.restore();
      const before = await stored(String(request.merchantOrderNo));
      expect(before).toHaveLength(1); // stored: the cut came after the commit
      const retry = await bed.app.signedPost(SUBMIT, request, merchant.appSecret);
      expect(retry).toMatchObject({ status: 200, json: { code: 0 } });
      expect(retry.json.data.orderNo ?? retry.json.data.platformOrderNo).toBe(before[0]); // platformOrderNo: ALIPAY, WECHAT
      if (channel !== 'YHT') expect(retry.json.data.recovered).toBe(true);
      expect(await stored(String(request.merchantOrderNo))).toEqual(before);
    });
  }
});
