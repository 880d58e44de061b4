import { notFound } from 'next/navigation';
import { sandboxTranslations } from '@/components/sandbox/sandbox-locale';
import { SandboxPageHeader } from '@/components/sandbox/sandbox-page-header';
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
  const query = await searchParams;
  const cashier = await sandboxCashier(getDb(), tradeNo);
  if (!cashier) notFound();
  const { locale, t } = await sandboxTranslations(query.lang);
  return (
    <main className="checkout" lang={locale}>
      <SandboxPageHeader locale={locale} t={t} query={query} />
      <section className="card" aria-labelledby="cashier-title">
        <p className="warn">{t('yht.banner')}</p>
        <h1 id="cashier-title" className="text-xl">
          {t('yht.title')}
        </h1>
        <p>{cashier.subject}</p>
        <p className="label">{t('yht.amount')}</p>
        <p className="amount" data-testid="cashier-amount">
          ¥{cashier.amount}
        </p>
        <p className="label">{t('yht.method')}</p>
        <p data-testid="cashier-method">{t.has(`yht.methods.${cashier.payMethod}`) ? t(`yht.methods.${cashier.payMethod}`) : cashier.payMethod}</p>
        <p className="label">{t('yht.status')}</p>
        <p className="status" data-testid="cashier-status">
          {t(`yht.states.${cashier.status === 'WAITING' || cashier.status === 'SUCCESS' ? cashier.status : 'CLOSED'}`)}
        </p>
        {query.refused ? (
          <p className="warn" role="alert">
            {query.refused}
          </p>
        ) : null}
        {cashier.status === 'WAITING' ? (
          <form method="post" action={`/sandbox/yht/cashier/${cashier.tradeNo}/pay`}>
            <button type="submit" className="btn" data-testid="cashier-pay">
              {t('yht.pay', { amount: cashier.amount })}
            </button>
          </form>
        ) : null}
        {cashier.status === 'SUCCESS' && cashier.returnUrl ? (
          <a className="btn-secondary" href={cashier.returnUrl}>
            {t('yht.backToMerchant')}
          </a>
        ) : null}
        <p className="label">{t('yht.order')}</p>
        <p className="mono">
          {cashier.tradeNo} ({t('yht.merchantOrder')} {cashier.outTradeNo})
        </p>
        <p className="label">{t('yht.expires')}</p>
        <p className="mono">{cashier.expireAt.toISOString()}</p>
        {cashier.notifyCount > 0 ? (
          <>
            <p className="label">{t('yht.callbacks')}</p>
            <p className="mono" data-testid="cashier-notify">
              {cashier.notifyCount}: {cashier.lastNotifyResult}
            </p>
          </>
        ) : null}
      </section>
    </main>
  );
}
