import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { getDb } from '../lib/db/client';
import { aMerchant, receivingAddresses } from './factories';
import { contractSignature } from './open-api-client';

export interface ReceivedNotification {
  contentType: string | undefined;
  form: Record<string, string>;
  /** The signature recomputed by the test's own implementation of the contract's algorithm matches. */
  signatureValid: boolean;
}

type Reply = (received: ReceivedNotification, res: http.ServerResponse) => void;

/** A merchant's notifyUrl on loopback: records every POST and answers as the test says. */
export async function startReceiver(appSecretFor: (appId: string) => string | undefined) {
  const received: ReceivedNotification[] = [];
  let reply: Reply = (_received, res) => res.end('success');
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      const secret = appSecretFor(form.appId ?? '');
      const entry = {
        contentType: req.headers['content-type'],
        form,
        signatureValid: secret !== undefined && contractSignature(form, secret) === form.signature,
      };
      received.push(entry);
      reply(entry, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/notify`,
    port,
    received,
    answer(next: Reply) {
      reply = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The setup of notification tests: a merchant with two receiving addresses and its receiver, started once per file.
 * With `isolateEachTest`, every test starts with no notification pending (earlier tests' retries cannot become due
 * under its clock) and a receiver that answers `success`.
 */
export function notificationTestBed(options: { isolateEachTest: boolean }) {
  const bed = {} as { merchant: Awaited<ReturnType<typeof aMerchant>>; receiver: Awaited<ReturnType<typeof startReceiver>> };
  beforeAll(async () => {
    bed.merchant = await aMerchant();
    await receivingAddresses(2);
    bed.receiver = await startReceiver((appId) => (appId === bed.merchant.appId ? bed.merchant.appSecret : undefined));
  });
  afterAll(() => bed.receiver.close());
  if (options.isolateEachTest) {
    beforeEach(async () => {
      await getDb().execute(sql`UPDATE notifications SET status = 'superseded' WHERE status = 'pending'`);
      bed.receiver.received.length = 0;
      bed.receiver.answer((_received, res) => res.end('success'));
    });
  }
  return bed;
}
