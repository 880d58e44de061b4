import { getDb } from '@/lib/db/client';
import { findAlipayCheckout } from '@/lib/orders/alipay-checkout-view';
import { findUsdtCheckout } from '@/lib/orders/checkout-view';
import { findWechatCheckout } from '@/lib/orders/wechat-checkout-view';
import { findYhtCheckout } from '@/lib/orders/yht-checkout-view';

export const dynamic = 'force-dynamic';

/** The checkout page polls this; the state comes from the database only, never from the browser. */
export async function GET(_request: Request, { params }: { params: Promise<{ token: string }> }) {
  const token = (await params).token;
  const db = getDb();
  const checkout =
    (await findUsdtCheckout(db, token)) ??
    (await findYhtCheckout(db, token)) ??
    (await findWechatCheckout(db, token)) ??
    (await findAlipayCheckout(db, token, new Date(), { gatewayUrl: false }));
  if (!checkout) return Response.json({ error: 'not found' }, { status: 404 });
  return Response.json(
    { status: checkout.status, secondsLeft: checkout.secondsLeft, redirectUrl: checkout.status === 'paid' ? checkout.redirectUrl : null },
    { headers: { 'cache-control': 'no-store' } },
  );
}
