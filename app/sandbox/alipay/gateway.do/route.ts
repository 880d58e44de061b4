import { getDb } from '@/lib/db/client';
import { sandboxEnabled } from '@/lib/sandbox/sandbox-enabled';
import { handleGateway } from '@/sandbox/alipay/gateway';

export const dynamic = 'force-dynamic';

/** The simulated Alipay OpenAPI v2 gateway (development and tests only). */
async function handle(request: Request) {
  if (!sandboxEnabled()) return new Response('not found', { status: 404 });
  return handleGateway(request, getDb());
}

export const GET = handle;
export const POST = handle;
