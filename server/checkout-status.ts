import type http from 'node:http';
import { isGone } from '../lib/checkout/load-checkout';
import { findCheckoutOrder } from '../lib/checkout/checkout-merchant';
import type { Database } from '../lib/db/client';

const CHECKOUT_PAGE = /^\/pay\/([A-Za-z0-9_-]{20,100})$/;

/**
 * A payUrl whose order closed long ago answers 410 Gone (its page, rendered by Next.js, says so in the payer's
 * language). A page cannot choose its status in Next.js except 404, so the status is set here, before the page
 * renders over the same response; every other request passes untouched.
 */
export async function stampCheckoutStatus(db: () => Database, req: http.IncomingMessage, res: http.ServerResponse, now = new Date()): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return;
  const token = CHECKOUT_PAGE.exec((req.url ?? '').split('?')[0]!)?.[1];
  if (!token) return;
  const order = await findCheckoutOrder(db(), token);
  if (order && isGone(order, now)) res.statusCode = 410;
}
