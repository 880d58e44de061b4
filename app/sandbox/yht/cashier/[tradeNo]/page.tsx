import { notFound } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { sandboxEnabled } from '@/lib/sandbox/sandbox-enabled';
import { sandboxCashier } from '@/sandbox/yht/cashier-view';

export const dynamic = 'force-dynamic';

/** The simulated YHT cashier: what the payer sees at the aggregator, with a Pay button instead of a real wallet. */
export default async function SandboxYhtCashier({
  params,
  searchParams,
}: {
  params: Promise<{ tradeNo: string }>;
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  if (!sandboxEnabled()) notFound();
  const { tradeNo } = await params;
  const { refused } = await searchParams;
  const cashier = await sandboxCashier(getDb(), tradeNo);
  if (!cashier) notFound();
  return (
    <main className="checkout">
      <section className="card" aria-labelledby="cashier-title">
        <p className="warn">SANDBOX: simulated YHT aggregator, no real money moves.</p>
        <h1 id="cashier-title">YHT cashier</h1>
        <p>{cashier.subject}</p>
        <p className="label">Amount</p>
        <p className="amount" data-testid="cashier-amount">
          ¥{cashier.amount}
        </p>
        <p className="label">Payment method</p>
        <p data-testid="cashier-method">{cashier.method}</p>
        <p className="label">Status</p>
        <p className="status" data-testid="cashier-status">
          {cashier.status === 'WAITING' ? 'Waiting for payment' : cashier.status === 'SUCCESS' ? 'Paid' : 'Closed'}
        </p>
        {refused ? (
          <p className="warn" role="alert">
            {refused}
          </p>
        ) : null}
        {cashier.status === 'WAITING' ? (
          <form method="post" action={`/sandbox/yht/cashier/${cashier.tradeNo}/pay`}>
            <p>
              <button type="submit" data-testid="cashier-pay">
                Pay ¥{cashier.amount}
              </button>
            </p>
          </form>
        ) : null}
        {cashier.status === 'SUCCESS' && cashier.returnUrl ? (
          <p>
            <a href={cashier.returnUrl}>Back to the merchant</a>
          </p>
        ) : null}
        <p className="label">Order</p>
        <p className="mono">
          {cashier.tradeNo} (merchant order {cashier.outTradeNo})
        </p>
        <p className="label">Expires</p>
        <p className="mono">{cashier.expireAt.toISOString()}</p>
        {cashier.notifyCount > 0 ? (
          <>
            <p className="label">Callbacks sent</p>
            <p className="mono" data-testid="cashier-notify">
              {cashier.notifyCount}: {cashier.lastNotifyResult}
            </p>
          </>
        ) : null}
      </section>
    </main>
  );
}
