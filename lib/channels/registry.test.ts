import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDb } from '../db/client';
import { ORDER_STATUSES } from '../orders/order-status';
import { PERIODIC_JOBS } from '../workers/periodic-jobs';
import { aMerchant } from '../../test/factories';
import { callbackSegment, channelByCallbackSegment, channelNamed, channelOf, CHANNEL_NAMES, CHANNELS, credentialChannelNamed, credentialChannels, describeCredential } from '.';

async function allowedValues(constraint: string): Promise<string[]> {
  const { rows } = await getDb().execute<{ definition: string }>(sql`
    SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conname = ${constraint}`);
  expect(rows, constraint).toHaveLength(1);
  return [...rows[0]!.definition.matchAll(/'([^']+)'/g)].map((match) => match[1]!);
}

describe('the channel registry', () => {
  it('is the list the orders.channel CHECK constraint allows, and orders.status allows the typed statuses', async () => {
    expect((await allowedValues('orders_channel_check')).sort()).toEqual([...CHANNEL_NAMES].sort());
    expect((await allowedValues('orders_status_check')).sort()).toEqual([...ORDER_STATUSES].sort());
  });

  it('lists the channels with merchant credentials that the upstream_credentials.channel CHECK constraint allows', async () => {
    expect((await allowedValues('upstream_credentials_channel_check')).sort()).toEqual(credentialChannels().map((channel) => channel.name).sort());
  });

  it('refuses an order of a channel or status the registry does not know', async () => {
    const merchant = await aMerchant();
    const insert = (channel: string, status: string) =>
      getDb().execute(sql`
        INSERT INTO orders (order_no, merchant_id, merchant_order_no, channel, status, currency, requested_amount_minor, pay_amount_minor, pay_token, expires_at)
        VALUES (${`X${channel}${status}`}, ${merchant.id}, ${`M-${channel}-${status}`}, ${channel}, ${status}, 'CNY', 1, 1, ${`token-${channel}-${status}-0123456789`}, now())`);
    await expect(insert('BITCOIN', 'pending')).rejects.toMatchObject({ cause: { constraint: 'orders_channel_check' } });
    await expect(insert('USDT', 'expired')).rejects.toMatchObject({ cause: { constraint: 'orders_status_check' } });
    await expect(insert('USDT', 'pending')).resolves.toBeDefined();
  });

  it('resolves payType (absent: USDT), order channels and callback paths from the one list', () => {
    expect(channelOf({}).name).toBe('USDT');
    for (const channel of CHANNELS) {
      expect(channelOf({ payType: channel.name })).toBe(channel);
      expect(channelNamed(channel.name)).toBe(channel);
      if (channel.callback) expect(channelByCallbackSegment(callbackSegment(channel))).toBe(channel);
    }
    expect(() => channelOf({ payType: 'BITCOIN' })).toThrow(`payType must be one of ${CHANNEL_NAMES.join(', ')}`);
    expect(channelNamed('BITCOIN')).toBeUndefined();
    expect(channelByCallbackSegment('usdt')).toBeUndefined(); // no upstream callback on chain
  });

  it('gives a credential its channel, whose rules describe it; a channel without merchant credentials is refused by name', () => {
    expect(credentialChannelNamed('WECHAT')).toBe(channelNamed('WECHAT'));
    const stored = { upstreamAppId: 'wx0123456789abcdef', sellerId: null, mchId: '1900000109', merchantCertSerial: 'ABCDEF12', upstreamPublicKeyId: null, platformCertificate: true };
    expect(describeCredential({ channel: 'WECHAT', ...stored })).toBe('appid wx0123456789abcdef, mchid 1900000109, serial ABCDEF12, platform certificate');
    expect(() => credentialChannelNamed('USDT')).toThrow(expect.objectContaining({ kind: 'invalid_credential', message: expect.stringContaining('ALIPAY, WECHAT') }));
  });

  it("runs every channel's background jobs", () => {
    for (const channel of CHANNELS) for (const job of channel.jobs) expect(PERIODIC_JOBS).toContain(job);
  });

  it('names the order in every notice as its payment notification does (orderNumberField)', () => {
    for (const channel of CHANNELS) {
      const form = channel.notificationFields({ orderNo: 'P123', payAmountMinor: 1250n });
      expect(form[channel.orderNumberField], channel.name).toBe('P123');
    }
  });
});
