import { notFound } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { sandboxEnabled } from '@/lib/sandbox/sandbox-enabled';
import { confirmationDelayMs, recentSandboxTransfers, SANDBOX_PAYER } from '@/sandbox/tron/ledger';

export const dynamic = 'force-dynamic';

function usdt(raw: string): string {
  const value = BigInt(raw);
  return `${value / 1_000_000n}.${(value % 1_000_000n).toString().padStart(6, '0')}`.replace(/0{1,4}$/, '');
}

/** The sandbox wallet: a tester sends simulated USDT (TRC20) to a receiving address. */
export default async function SandboxTronWallet({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  if (!sandboxEnabled()) notFound();
  const { to = '', amount = '', sent } = await searchParams;
  const transfers = await recentSandboxTransfers(getDb());
  return (
    <main className="checkout">
      <section className="card" aria-labelledby="wallet-title">
        <h1 id="wallet-title">Sandbox TRON wallet</h1>
        <p>Simulated USDT (TRC20). Transfers are final {Math.round(confirmationDelayMs() / 1000)} s after their block. Sender: <span className="mono">{SANDBOX_PAYER}</span></p>
        {sent ? (
          <p className="status" role="status" data-testid="wallet-sent">
            Sent: {sent}
          </p>
        ) : null}
        <form method="post" action="/sandbox/tron/transfer">
          <p className="label">
            <label htmlFor="to">To address</label>
          </p>
          <input id="to" name="to" defaultValue={to} required className="mono" style={{ width: '100%' }} />
          <p className="label">
            <label htmlFor="amount">Amount (USDT)</label>
          </p>
          <input id="amount" name="amount" defaultValue={amount} required inputMode="decimal" className="mono" />
          <p>
            <button type="submit">Send USDT</button>
          </p>
        </form>
        <h2>Recent transfers</h2>
        <ul>
          {transfers.map((transfer) => (
            <li key={transfer.transactionId} className="mono">
              {usdt(transfer.valueRaw)} USDT → {transfer.to} · {transfer.confirmed ? 'confirmed' : 'confirming'}
            </li>
          ))}
        </ul>
      </section>
    </main>
  );
}
