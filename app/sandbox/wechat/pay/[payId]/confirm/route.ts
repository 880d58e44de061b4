import { sandboxEnabled } from '@/lib/sandbox/sandbox-enabled';
import { handlePayerConfirm } from '@/sandbox/wechat/http-api';

export const dynamic = 'force-dynamic';

export async function POST(request: Request, { params }: { params: Promise<{ payId: string }> }) {
  if (!sandboxEnabled()) return new Response('not found', { status: 404 });
  return handlePayerConfirm(request, (await params).payId);
}
