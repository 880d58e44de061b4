import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock';
import { getDb } from '../db/client';
import { aMerchant } from '../../test/factories';
import { notificationTestBed } from '../../test/notify-receiver';
import { manyPaidOrders } from '../../test/paid-orders';
import { destinationOf } from './destination';
import { failingDestinations } from './failing-destinations';
import { NotificationWorker } from './notification-worker';
import { notificationFieldsOf } from '../channels/index';

const bed = notificationTestBed({ isolateEachTest: true });

describe('destinations failing now', () => {
  it('shows a destination from its first unanswered attempt, its circuit once open, and who waits for it; an answer clears it', async () => {
    const clock = new ManualClock(new Date());
    const other = await aMerchant();
    await manyPaidOrders(other.id, bed.receiver.url.replace('/notify', '/other-merchant'), 1, clock.now());
    bed.receiver.answer(() => undefined);
    await manyPaidOrders(bed.merchant.id, bed.receiver.url, 3, clock.now());
    const worker = new NotificationWorker({ db: getDb(), channelFields: notificationFieldsOf, clock, timeoutMs: 200 });
    expect(await failingDestinations(getDb(), clock.now())).toEqual([]);

    // Both merchants' notifications go to the one destination (same host and port): 4 attempts, none answered.
    expect(await worker.runOnce()).toBe(4);
    const destination = destinationOf(bed.receiver.url)!;
    let [failing] = await failingDestinations(getDb(), clock.now());
    expect(failing).toMatchObject({ destination, consecutiveFailures: 4, circuit: 'closed', pending: 4, lastError: 'timeout after 200 ms' });
    expect(failing!.failingSince).toEqual(clock.now());
    expect(failing!.merchants.sort()).toEqual([`${bed.merchant.name} (${bed.merchant.appId})`, `${other.name} (${other.appId})`].sort());

    clock.advance(15_000);
    expect(await worker.runOnce()).toBe(4);
    [failing] = await failingDestinations(getDb(), clock.now());
    expect(failing).toMatchObject({ consecutiveFailures: 8, circuit: 'open' });
    expect(failing!.openUntil!.getTime()).toBeGreaterThan(clock.now().getTime());

    // A merchant sees it counted for its own notifications only; a merchant with none waiting there does not see it.
    expect(await failingDestinations(getDb(), clock.now(), { merchantId: other.id })).toMatchObject([{ destination, pending: 1, merchants: [] }]);
    const bystander = await aMerchant();
    expect(await failingDestinations(getDb(), clock.now(), { merchantId: bystander.id })).toEqual([]);

    // The probe is answered: nothing is failing any more.
    bed.receiver.answer((_received, res) => res.end('success'));
    clock.advance(60_000);
    expect(await worker.runOnce()).toBe(1);
    expect(await failingDestinations(getDb(), clock.now())).toEqual([]);
    const { rows } = await getDb().execute<{ last_answer_at: Date | null }>(sql`SELECT last_answer_at FROM notification_destinations WHERE destination = ${destination}`);
    expect(rows[0]!.last_answer_at).not.toBeNull();
  });
});
