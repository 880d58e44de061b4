import { sandboxEnabled } from '@/lib/sandbox/sandbox-enabled';
import { handleCashierPay } from '@/sandbox/alipay/cashier-view';

export const dynamic = 'force-dynamic';

export async function POST(_request: Request, { params }: { params: Promise<{ tradeNo: string }> }) {
  if (!sandboxEnabled()) return new Response('not found', { status: 404 });
  return handleCashierPay((await params).tradeNo);
}
