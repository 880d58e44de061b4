import { getDb } from '@/lib/db/client';
import { maySandboxAct } from '@/lib/sandbox/sandbox-exposure';
import { sandboxEnabled } from '@/lib/sandbox/sandbox-enabled';
import { handleSandboxTron } from '@/sandbox/tron/http-api';

export const dynamic = 'force-dynamic';

async function handle(request: Request, { params }: { params: Promise<{ path: string[] }> }) {
  if (!sandboxEnabled()) return new Response('not found', { status: 404 });
  // Reading the simulated chain is harmless; sending on it can pay an order, so in production only an operator may.
  if (request.method === 'POST' && !(await maySandboxAct(getDb, request))) {
    return new Response('the sandbox wallet needs an operator session in production', { status: 401, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  }
  return handleSandboxTron(request, (await params).path);
}

export const GET = handle;
export const POST = handle;
