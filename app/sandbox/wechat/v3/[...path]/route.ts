import { getDb } from '@/lib/db/client';
import { sandboxEnabled } from '@/lib/sandbox/sandbox-enabled';
import { handleSandboxWechatApi } from '@/sandbox/wechat/http-api';

export const dynamic = 'force-dynamic';

/** The simulated WeChat Pay API v3 (WECHAT_API_BASE_URL defaults to `${PUBLIC_BASE_URL}/sandbox/wechat`). */
async function handle(request: Request, { params }: { params: Promise<{ path: string[] }> }) {
  if (!sandboxEnabled()) return new Response('not found', { status: 404 });
  return handleSandboxWechatApi(request, ['v3', ...(await params).path], getDb());
}

export const GET = handle;
export const POST = handle;
