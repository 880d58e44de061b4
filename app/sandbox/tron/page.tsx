import { notFound } from 'next/navigation';
import { sandboxTranslations } from '@/components/sandbox/sandbox-locale';
import { SandboxPageHeader } from '@/components/sandbox/sandbox-page-header';
import { ReloadWhenRestored } from '@/components/sandbox/reload-when-restored';
import { getDb } from '@/lib/db/client';
import { safeReturnPath } from '@/lib/i18n/locales';
import { sandboxEnabled } from '@/lib/sandbox/sandbox-enabled';
import { confirmationDelayMs, recentSandboxTransfers, SANDBOX_PAYER } from '@/sandbox/tron/ledger';
import { sandboxUsdt, sentMomentsAgo } from '@/sandbox/tron/wallet-form';

export const dynamic = 'force-dynamic';

/**
 * The sandbox wallet: a tester sends simulated USDT (TRC20) to a receiving address. The form posts, and the answer
 * redirects here (POST-redirect-GET) with the form empty; a prefilled link whose payment was just sent stays empty
 * too, so Back never offers the same payment again. `back` is the checkout to return to.
 */
export default async function SandboxTronWallet({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  if (!sandboxEnabled()) notFound();
  const query = await searchParams;
  const { sent, lang } = query;
  const back = query.back && safeReturnPath(query.back) === query.back ? query.back : undefined;
  const { locale, t } = await sandboxTranslations(lang);
  const transfers = await recentSandboxTransfers(getDb());
  const paidAlready = !sent && query.to && query.amount ? sentMomentsAgo(transfers, query.to, query.amount) : false;
  const prefill = sent || paidAlready ? { to: '', amount: '' } : { to: query.to ?? '', amount: query.amount ?? '' };
  return (
    <main className="checkout" lang={locale}>
      <ReloadWhenRestored />
      <SandboxPageHeader locale={locale} t={t} query={query} />
      <section className="card" aria-labelledby="wallet-title">
        <h1 id="wallet-title" className="text-xl">
          {t('tron.title')}
        </h1>
        <p className="note">{t('tron.intro', { seconds: Math.round(confirmationDelayMs() / 1000) })}</p>
        <p className="label">{t('tron.sender')}</p>
        <p className="mono">{SANDBOX_PAYER}</p>
        {sent ? (
          <div role="status" data-testid="wallet-sent">
            <p className="status">{t('tron.sent', { transactionId: sent })}</p>
            <p className="note">{t('tron.sentNote')}</p>
          </div>
        ) : null}
        {paidAlready ? (
          <p className="warn" role="status" data-testid="wallet-already-sent">
            {t('tron.alreadySent', { amount: query.amount! })}
          </p>
        ) : null}
        <form method="post" action="/sandbox/tron/transfer" autoComplete="off">
          {back ? <input type="hidden" name="back" value={back} /> : null}
          {lang ? <input type="hidden" name="lang" value={lang} /> : null}
          <p className="label">
            <label htmlFor="to">{t('tron.to')}</label>
          </p>
          <input id="to" name="to" defaultValue={prefill.to} required autoComplete="off" className="mono" style={{ width: '100%' }} />
          <p className="label">
            <label htmlFor="amount">{t('tron.amount')}</label>
          </p>
          <input id="amount" name="amount" defaultValue={prefill.amount} required autoComplete="off" inputMode="decimal" className="mono" />
          <button type="submit" className="btn">
            {t('tron.send')}
          </button>
        </form>
        {back ? (
          <a className="btn-secondary" href={back} data-testid="wallet-back">
            {t('tron.backToCheckout')}
          </a>
        ) : null}
        {/* Its length depends on every earlier transfer: screenshots leave it out (e2e/visual/screenshot.css). */}
        <div data-volatile>
          <h2 className="text-base">{t('tron.recent')}</h2>
          {transfers.length === 0 ? <p className="note">{t('tron.none')}</p> : null}
          <ul>
            {transfers.map((transfer) => (
              <li key={transfer.transactionId} className="mono">
                {sandboxUsdt(transfer.valueRaw)} USDT → {transfer.to} · {transfer.confirmed ? t('tron.confirmed') : t('tron.confirming')}
              </li>
            ))}
          </ul>
        </div>
      </section>
    </main>
  );
}
