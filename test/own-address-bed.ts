/**
 * Run inside a network namespace of its own (lib/notifications/own-address.http.test.ts starts it with unshare) where
 * this host has an interface address from no special-purpose range, OWN_ADDRESS: what the probe's host had, seen from
 * the service. Starts the service's server and a merchant's receiver on 0.0.0.0 (which answers on OWN_ADDRESS), then
 * asks what the submit says to a notifyUrl there, and what the notifier does with a notice already stored for one.
 * Prints one JSON line of what happened; the test judges it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { getDb, closeDb } from '../lib/db/client';
import { notificationFieldsOf } from '../lib/channels/index';
import { NotificationWorker } from '../lib/notifications/notification-worker';
import { aMerchant, receivingAddresses } from './factories';
import { startTestApp } from './open-api-client';
import { aPendingUsdtOrder, payOrder } from './paid-orders';

const own = process.env.OWN_ADDRESS!;
const received: string[] = [];
const receiver = http.createServer((req, res) => {
  received.push(`${req.method} ${req.url}`);
  res.end('success');
});
await new Promise<void>((resolve) => receiver.listen(0, '0.0.0.0', resolve));
const notifyUrl = `http://${own}:${(receiver.address() as AddressInfo).port}/notify`;

// The receiver is reachable there: without the guard the notice would arrive.
const reachable = await fetch(notifyUrl, { method: 'POST', body: 'ping' }).then((response) => response.text());
received.length = 0;

const app = await startTestApp();
const merchant = await aMerchant();
await receivingAddresses(2);
process.env.NOTIFY_ALLOW_PRIVATE_NETWORKS = 'false';
const submitted = await app.signedPost('/v1/api/open/order/submit', { appId: merchant.appId, merchantOrderNo: `OWN-${Date.now()}`, pay_usdt: '3.00', notifyUrl }, merchant.appSecret);

// A notice stored before the rule (or while private networks were allowed): the notifier must still refuse it.
const order = await aPendingUsdtOrder(merchant.id, notifyUrl);
await payOrder(order.id, new Date());
await new NotificationWorker({ db: getDb(), channelFields: notificationFieldsOf, timeoutMs: 1_000 }).runOnce();
const { rows } = await getDb().execute<{ outcome: string; error: string | null }>(
  sql`SELECT a.outcome, a.error FROM notification_attempts a JOIN notifications n ON n.id = a.notification_id WHERE n.order_id = ${order.id}`,
);

process.stdout.write(`${JSON.stringify({ reachable, submitted: submitted.json, attempts: rows, received })}\n`);
await app.close();
receiver.close();
await closeDb();
