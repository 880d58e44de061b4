import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb } from '../lib/db/client';
import { contractSignature } from '../test/beds/contract-signer';
import { aMerchant, receivingAddresses } from '../test/factories';
import { startTestApp, type TestApp } from '../test/open-api-client';
import { ownConnection } from '../test/own-connection';
import { storedOrderCounts } from '../test/stored-orders';
import { distinctUsdtOrders } from '../test/distinct-usdt-orders';

/**
 * A server that answers read-only (25006), as a demoted primary behind a DNS name does after a switchover, or a
 * standby the front still points at: a submit is answered 503 with Retry-After and code 1000, never a 500, and
 * nothing of it is stored; once the database accepts writes again submits succeed, each connection that met the
 * refusal having been closed rather than kept in the pool.
 */
const SUBMIT = '/v1/api/open/order/submit';
let app: TestApp;
let merchant: Awaited<ReturnType<typeof aMerchant>>;

const usdtOrder = distinctUsdtOrders(() => merchant.appId, 'RO');

async function submit(fields: Record<string, string>) {
  const response = await fetch(`${app.baseUrl}${SUBMIT}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...fields, signature: contractSignature(fields, merchant.appSecret) }),
  });
  const json = (await response.json()) as { code?: number };
  return { status: response.status, code: json.code, retryAfter: response.headers.get('retry-after') };
}

async function setReadOnly(on: boolean): Promise<void> {
  const client = await ownConnection();
  try {
    await client.query('SET default_transaction_read_only = off'); // this session, opened while it was on, too
    const { rows } = await client.query<{ name: string }>('SELECT current_database() AS name');
    const name = `"${rows[0]!.name}"`;
    await client.query(on ? `ALTER DATABASE ${name} SET default_transaction_read_only = on` : `ALTER DATABASE ${name} RESET default_transaction_read_only`);
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  merchant = await aMerchant({ wholePool: true });
  await receivingAddresses(3);
  app = await startTestApp();
});

afterAll(async () => {
  await app.close();
  await setReadOnly(false);
});

describe('the database answering read-only (25006)', () => {
  it('answers 503 + 1000, stores nothing, and serves again once it accepts writes', async () => {
    expect(await submit(usdtOrder())).toMatchObject({ status: 200, code: 0 });
    await setReadOnly(true);
    await closeDb(); // the pool's next connections are the read-only server's
    const refused = [usdtOrder(), usdtOrder(), usdtOrder()];
    for (const fields of refused) expect(await submit(fields)).toMatchObject({ status: 503, code: 1000, retryAfter: '2' });
    expect(await storedOrderCounts(refused.map((fields) => fields.merchantOrderNo!))).toEqual([0, 0, 0]);

    await setReadOnly(false);
    // Connections opened while it was read-only keep their session's setting: each is closed at its first refused
    // write, so a few answers may still be 503 before every connection of the pool is a new one.
    const answers = [];
    for (let attempt = 0; attempt < 30; attempt += 1) {
      const answer = await submit(refused[0]!);
      answers.push(answer);
      if (answer.code === 0) break;
    }
    expect(answers.at(-1)).toMatchObject({ status: 200, code: 0 });
    for (const answer of answers.slice(0, -1)) expect(answer).toMatchObject({ status: 503, code: 1000 });
    expect(await storedOrderCounts([refused[0]!.merchantOrderNo!])).toEqual([1]);
  });
});
