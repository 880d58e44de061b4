import { notFound } from 'next/navigation';
import { sandboxTranslations } from '@/components/sandbox/sandbox-locale';
import { SandboxPageHeader } from '@/components/sandbox/sandbox-page-header';
import { networkName } from '@/lib/channels/usdt/checkout-network';
import { usdtChainNamed } from '@/lib/channels/usdt/usdt-chains';
import { sandboxEnabled } from '@/lib/sandbox/sandbox-enabled';
import { SANDBOX_EVM_CHAINS, SANDBOX_PAYER, isSandboxEvmChainName, type SandboxEvmChainName } from '@/sandbox/evm/sandbox-evm-chains';
import { sandboxRpcUrl } from '@/sandbox/evm/remote-transfer';

export const dynamic = 'force-dynamic';

/** The sandbox EVM wallet: a tester sends sandbox USDT on a local Ethereum, BNB Smart Chain or Polygon node. */
export default async function SandboxEvmWallet({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  if (!sandboxEnabled()) notFound();
  const query = await searchParams;
  const { chain: chainParam = 'ERC20', sent, error, lang } = query;
  // After a transfer the form is empty even if the link was prefilled: sending again must be deliberate.
  const { to = '', amount = '' } = sent ? {} : query;
  const chain = isSandboxEvmChainName(chainParam) ? chainParam : 'ERC20';
  const spec = SANDBOX_EVM_CHAINS[chain];
  const { locale, t } = await sandboxTranslations(lang);
  /** "ERC20 (Ethereum)", "ERC20（以太坊）": as the checkout that sent the payer here names the network. */
  const network = (name: SandboxEvmChainName) => {
    const usdtChain = usdtChainNamed(name);
    return usdtChain ? networkName(usdtChain, locale === 'zh-CN' ? 'zh' : 'en') : name;
  };
  return (
    <main className="checkout" lang={locale}>
      <SandboxPageHeader locale={locale} t={t} query={query} />
      <section className="card" aria-labelledby="wallet-title">
        <h1 id="wallet-title">{t('evm.title')}</h1>
        <p>{t('evm.intro', { network: network(chain), chainId: String(spec.chainId), decimals: spec.decimals, rpcUrl: sandboxRpcUrl(chain) })}</p>
        <p className="label">{t('evm.sender')}</p>
        <p className="mono">{SANDBOX_PAYER}</p>
        {sent ? (
          <p className="status" role="status" data-testid="wallet-sent">
            {t('evm.sent', { transactionHash: sent })}
          </p>
        ) : null}
        {error ? (
          <p className="warn" role="alert" data-testid="wallet-error">
            {error}
          </p>
        ) : null}
        <form method="post" action="/sandbox/evm/transfer">
          {lang ? <input type="hidden" name="lang" value={lang} /> : null}
          <p className="label">
            <label htmlFor="chain">{t('evm.network')}</label>
          </p>
          <select id="chain" name="chain" defaultValue={chain}>
            {(Object.keys(SANDBOX_EVM_CHAINS) as SandboxEvmChainName[]).map((name) => (
              <option key={name} value={name}>
                {network(name)}
              </option>
            ))}
          </select>
          <p className="label">
            <label htmlFor="to">{t('evm.to')}</label>
          </p>
          <input id="to" name="to" defaultValue={to} required className="mono" style={{ width: '100%' }} />
          <p className="label">
            <label htmlFor="amount">{t('evm.amount')}</label>
          </p>
          <input id="amount" name="amount" defaultValue={amount} required inputMode="decimal" className="mono" />
          <p>
            <button type="submit">{t('evm.send')}</button>
          </p>
        </form>
      </section>
    </main>
  );
}
