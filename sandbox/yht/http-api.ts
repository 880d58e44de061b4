import { getDb, type Database } from '@/lib/db/client';
import { handleCreate, handleQuery } from './api';
import { paySandboxOrder, SandboxPayRefused } from './pay';

/**
 * The simulated YHT aggregator's HTTP face under `/sandbox/yht/api`: `POST pay/create`, `POST pay/query`
 * (docs/channels/yht.md). `path` is what follows the mount point.
 */
export async function handleSandboxYhtApi(request: Request, path: readonly string[], db: Database = getDb()): Promise<Response> {
  const route = path.join('/');
  if (request.method !== 'POST') return new Response('method not allowed', { status: 405, headers: { allow: 'POST' } });
  if (route === 'pay/create') return handleCreate(request, db);
  if (route === 'pay/query') return handleQuery(request, db);
  return new Response('not found', { status: 404 });
}

/** The cashier's Pay button (a plain form POST): pays, sends the callback, then returns the payer to the merchant. */
export async function handleCashierPay(tradeNo: string, db: Database = getDb()): Promise<Response> {
  const cashier = `/sandbox/yht/cashier/${encodeURIComponent(tradeNo)}`;
  try {
    const { order } = await paySandboxOrder(db, { tradeNo });
    return new Response(null, { status: 303, headers: { location: order.returnUrl ?? `${cashier}?paid=1` } });
  } catch (error) {
    if (!(error instanceof SandboxPayRefused)) throw error;
    return new Response(null, { status: 303, headers: { location: `${cashier}?refused=${encodeURIComponent(error.message)}` } });
  }
}
