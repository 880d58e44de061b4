import { getDb } from '@/lib/db/client';
import { maySandboxAct } from '@/lib/sandbox/sandbox-exposure';
import { sandboxEnabled } from '@/lib/sandbox/sandbox-enabled';
import { changesSandboxTron, handleSandboxTron } from '@/sandbox/tron/http-api';

export const dynamic = 'force-dynamic';

async function handle(request: Request, { params }: { params: Promise<{ path: string[] }> }) {
  if (!sandboxEnabled()) return new Response('not found', { status: 404 });
  // Reading the simulated chain is harmless (the watcher's reads are POSTs, as TronGrid's are); sending on it can pay an
  // order, so in production only an operator may change it.
  const path = (await params).path;
  if (changesSandboxTron(request.method, path) && !(await maySandboxAct(getDb, request))) {
    return new Response('the sandbox wallet needs an operator session in production', { status: 401, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  }
  return handleSandboxTron(request, path);
}

export const GET = handle;
export const POST = handle;
