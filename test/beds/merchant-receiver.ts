import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { contractSignature } from './contract-signer';

export interface ReceivedNotification {
  contentType: string | undefined;
  form: Record<string, string>;
  /** The signature recomputed by the independent contract signer matches. */
  signatureValid: boolean;
}

type Reply = (received: ReceivedNotification, res: http.ServerResponse) => void;

const answerSuccess: Reply = (_received, res) => res.end('success');

/**
 * A merchant's server on loopback, for tests and e2e specs alike: every POST, at any path, is a notification, recorded
 * (signature checked with the AppSecret of its appId) and answered as the test says (`success` by default); any other
 * request is the merchant's return page (the payer's browser, its favicon).
 */
export async function startMerchantReceiver(appSecret: string | ((appId: string) => string | undefined)) {
  const secretFor = typeof appSecret === 'string' ? () => appSecret : appSecret;
  const received: ReceivedNotification[] = [];
  let reply = answerSuccess;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.method !== 'POST') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<!doctype html><title>Merchant</title><h1>Thanks for your order</h1>');
        return;
      }
      const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      const secret = secretFor(form.appId ?? '');
      const entry = { contentType: req.headers['content-type'], form, signatureValid: secret !== undefined && contractSignature(form, secret) === form.signature };
      received.push(entry);
      reply(entry, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;
  return {
    /** The notifyUrl. */
    url: `${base}/notify`,
    notifyUrl: `${base}/notify`,
    returnUrl: `${base}/return`,
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
