import { sandboxEnabled } from '@/lib/sandbox/sandbox-enabled';
import { handleSandboxYhtApi } from '@/sandbox/yht/http-api';

export const dynamic = 'force-dynamic';

async function handle(request: Request, { params }: { params: Promise<{ path: string[] }> }) {
  if (!sandboxEnabled()) return new Response('not found', { status: 404 });
  return handleSandboxYhtApi(request, (await params).path);
}

export const GET = handle;
export const POST = handle;
