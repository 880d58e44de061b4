import { checkoutTokenRoute } from '@/lib/callers/checkout-token';
import { getDb } from '@/lib/db/client';
import { findCheckoutStatus } from '@/lib/checkout/checkout-status';

export const dynamic = 'force-dynamic';

/** The checkout page polls this; the state comes from the database only, never from the browser. */
export const GET = checkoutTokenRoute(
  (token, now) => findCheckoutStatus(getDb(), token, now),
  (checkout) => ({ status: checkout.status, secondsLeft: checkout.secondsLeft, redirectUrl: checkout.status === 'paid' ? checkout.redirectUrl : null, unpaidSeen: checkout.unpaidSeen ?? 0 }),
);
