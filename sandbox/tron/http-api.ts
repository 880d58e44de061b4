import { getDb } from '../../lib/db/client';
import { contractEvents, BLOCK_INTERVAL_MS, confirmationDelayMs, sendSandboxTransfer, SandboxTransferRefused } from './ledger';

function json(body: unknown, status = 200): Response {
  return Response.json(body, { status });
}

function block(number: number, timestampMs: number) {
  return { blockID: number.toString(16).padStart(64, '0'), block_header: { raw_data: { number, timestamp: timestampMs } } };
}

/**
 * The sandbox chain's HTTP face, TronGrid-style: `GET /v1/contracts/{contract}/events`, `POST /wallet/getnowblock`,
 * `POST /walletsolidity/getnowblock`; plus `POST /transfer` (form or JSON: to, amount) for the sandbox wallet.
 */
export async function handleSandboxTron(request: Request, path: readonly string[]): Promise<Response> {
  const url = new URL(request.url);
  const now = Date.now();
  const [first, second, third, fourth] = path;
  if (request.method === 'GET' && first === 'v1' && second === 'contracts' && third && fourth === 'events') {
    const query = new URLSearchParams(url.searchParams);
    query.set('contract', third);
    return json(await contractEvents(getDb(), query, now));
  }
  if (request.method === 'POST' && first === 'wallet' && second === 'getnowblock') return json(block(Math.floor(now / BLOCK_INTERVAL_MS), now));
  if (request.method === 'POST' && first === 'walletsolidity' && second === 'getnowblock') {
    const solid = now - confirmationDelayMs();
    return json(block(Math.floor(solid / BLOCK_INTERVAL_MS), solid));
  }
  if (request.method === 'POST' && first === 'transfer' && path.length === 1) {
    const isForm = (request.headers.get('content-type') ?? '').includes('form');
    const input = isForm ? Object.fromEntries((await request.formData()).entries()) : ((await request.json().catch(() => ({}))) as Record<string, unknown>);
    try {
      const transfer = await sendSandboxTransfer(getDb(), { to: String(input.to ?? '').trim(), amount: String(input.amount ?? '').trim() }, now);
      if (isForm) return Response.redirect(new URL(`../tron?sent=${transfer.transactionId}`, `${url.origin}${url.pathname}`), 303);
      return json(transfer);
    } catch (error) {
      if (error instanceof SandboxTransferRefused) return json({ error: error.message }, 400);
      throw error;
    }
  }
  return json({ error: 'not found' }, 404);
}
