import { notFound } from 'next/navigation';
import { sandboxEnabled } from '@/lib/sandbox/sandbox-enabled';
import { SANDBOX_EVM_CHAINS, SANDBOX_PAYER, isSandboxEvmChainName } from '@/sandbox/evm/sandbox-evm-chains';
import { sandboxRpcUrl } from '@/sandbox/evm/remote-transfer';

export const dynamic = 'force-dynamic';

/** The sandbox EVM wallet: a tester sends sandbox USDT on a local Ethereum, BNB Smart Chain or Polygon node. */
export default async function SandboxEvmWallet({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  if (!sandboxEnabled()) notFound();
  const { chain: chainParam = 'ERC20', to = '', amount = '', sent, error } = await searchParams;
  const chain = isSandboxEvmChainName(chainParam) ? chainParam : 'ERC20';
  const spec = SANDBOX_EVM_CHAINS[chain];
  return (
    <main className="checkout">
      <section className="card" aria-labelledby="wallet-title">
        <h1 id="wallet-title">Sandbox EVM wallet</h1>
        <p>
          Sandbox USDT on a local node ({spec.label}, chain id {spec.chainId}, {spec.decimals} decimals, {sandboxRpcUrl(chain)}). Sender:{' '}
          <span className="mono">{SANDBOX_PAYER}</span>
        </p>
        {sent ? (
          <p className="status" role="status" data-testid="wallet-sent">
            Sent: {sent}
          </p>
        ) : null}
        {error ? (
          <p className="warn" role="alert" data-testid="wallet-error">
            {error}
          </p>
        ) : null}
        <form method="post" action="/sandbox/evm/transfer">
          <p className="label">
            <label htmlFor="chain">Network</label>
          </p>
          <select id="chain" name="chain" defaultValue={chain}>
            {Object.entries(SANDBOX_EVM_CHAINS).map(([name, entry]) => (
              <option key={name} value={name}>
                {name} ({entry.label})
              </option>
            ))}
          </select>
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
      </section>
    </main>
  );
}
