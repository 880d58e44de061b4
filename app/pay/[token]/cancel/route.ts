import { cancelCheckoutOrder } from '@/lib/checkout/cancel-checkout-order';
import { getDb } from '@/lib/db/client';

export const dynamic = 'force-dynamic';

/**
 * The checkout's cancel form (a plain HTML POST: the checkout ships no framework). Another site's form is refused
 * (Sec-Fetch-Site), so only the checkout page itself cancels. Answers 303: to the merchant's redirectUrl once the
 * order is closed, else back to the checkout, which shows the order's own state.
 */
export async function POST(request: Request, { params }: { params: Promise<{ token: string }> }): Promise<Response> {
  const token = (await params).token;
  if (request.headers.get('sec-fetch-site') === 'cross-site') return new Response('forbidden', { status: 403 });
  const outcome = await cancelCheckoutOrder(getDb(), token, new Date());
  if (!outcome.found) return new Response('not found', { status: 404 });
  return new Response(null, { status: 303, headers: { location: outcome.redirectUrl ?? `/pay/${encodeURIComponent(token)}`, 'cache-control': 'no-store' } });
}
