import { getDb } from '@/lib/db/client';
import { maySandboxAct } from '@/lib/sandbox/sandbox-exposure';
import { sandboxEnabled } from '@/lib/sandbox/sandbox-enabled';
import { isSandboxEvmChainName } from '@/sandbox/evm/sandbox-evm-chains';
import { sandboxRpcUrl, sendSandboxEvmTransfer, SandboxEvmTransferRefused } from '@/sandbox/evm/remote-transfer';

export const dynamic = 'force-dynamic';

/** The sandbox EVM wallet's form: the payer sends sandbox USDT on the chosen node, then the page shows the result. */
export async function POST(request: Request) {
  if (!sandboxEnabled()) return new Response('not found', { status: 404 });
  if (!(await maySandboxAct(getDb, request))) {
    return new Response('the sandbox wallet needs an operator session in production', { status: 401, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  }
  const form = await request.formData();
  const chain = String(form.get('chain') ?? '');
  const to = String(form.get('to') ?? '').trim();
  const amount = String(form.get('amount') ?? '').trim();
  const back = new URLSearchParams({ chain, to, amount });
  const lang = String(form.get('lang') ?? '');
  if (/^(zh|en|zh-CN)$/.test(lang)) back.set('lang', lang);
  if (!isSandboxEvmChainName(chain)) {
    back.set('error', 'chain: choose ERC20, BEP20 or POLYGON');
  } else {
    try {
      const sent = await sendSandboxEvmTransfer({ chain, to, amount, rpcUrl: sandboxRpcUrl(chain) });
      back.set('sent', sent.transactionHash);
      // Sent: the form comes back empty, so that sending again is a new, deliberate payment (never a double one).
      back.delete('to');
      back.delete('amount');
    } catch (error) {
      if (!(error instanceof SandboxEvmTransferRefused)) throw error;
      back.set('error', error.message);
    }
  }
  return new Response(null, { status: 303, headers: { location: `/sandbox/evm?${back}` } });
}
