import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A merchant's server on loopback: notifyUrl records notifications (signature checked independently), returnUrl is a page. */
export async function startMerchantReceiver(appSecret: string) {
  const notifications: { form: Record<string, string>; signatureValid: boolean }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url?.startsWith('/notify')) {
        const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
        const text =
          Object.keys(form)
            .filter((key) => key !== 'signature' && form[key] !== '')
            .sort()
            .map((key) => `${key}=${form[key]}`)
            .join('&') + `&appsecret=${appSecret}`;
        notifications.push({ form, signatureValid: createHash('md5').update(text).digest('hex').toUpperCase() === form.signature });
        res.end('success');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Merchant</title><h1>Thanks for your order</h1>');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { notifyUrl: `${base}/notify`, returnUrl: `${base}/return`, notifications, close: () => server.close() };
}
