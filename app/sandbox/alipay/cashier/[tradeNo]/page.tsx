import { notFound } from 'next/navigation';
import { otherLanguageHref, sandboxTranslations } from '@/components/sandbox/sandbox-locale';
import { getDb } from '@/lib/db/client';
import { sandboxEnabled } from '@/lib/sandbox/sandbox-enabled';
import { sandboxCashier } from '@/sandbox/alipay/cashier-view';
import { BUYER_LOGON_ID } from '@/sandbox/alipay/pay';

export const dynamic = 'force-dynamic';

/** The simulated Alipay cashier: what the payer sees at Alipay, with a Pay button instead of a real wallet. */
export default async function SandboxAlipayCashier({
  params,
  searchParams,
}: {
  params: Promise<{ tradeNo: string }>;
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  if (!sandboxEnabled()) notFound();
  const { tradeNo } = await params;
  const query = await searchParams;
  const { refused, paid } = query;
  const cashier = await sandboxCashier(getDb(), tradeNo);
  if (!cashier) notFound();
  const { locale, t } = await sandboxTranslations(query.lang);
  const other = locale === 'zh-CN' ? 'en' : 'zh';
  const beijing = new Date(cashier.timeExpire.getTime() + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
  return (
    <main className="min-h-screen bg-sky-50 px-4 py-8" lang={locale}>
      <section className="mx-auto max-w-md rounded-2xl bg-white p-6 shadow-md" aria-labelledby="cashier-title">
        <div className="flex items-start justify-between gap-4">
          <p className="text-sm font-medium text-amber-700">{t('alipay.banner')}</p>
          <a className="text-sm text-sky-700 underline" href={otherLanguageHref(locale, query)} hrefLang={other} lang={other}>
            {t('languageLink')}
          </a>
        </div>
        <h1 id="cashier-title" className="mt-4 text-2xl font-semibold text-sky-700">
          {t('alipay.title')}
        </h1>
        <p className="mt-2 text-gray-700">{cashier.subject}</p>
        {cashier.body ? <p className="text-sm text-gray-500">{cashier.body}</p> : null}
        <p className="mt-4 text-sm text-gray-500">{t('alipay.amount')}</p>
        <p className="text-4xl font-bold" data-testid="cashier-amount">
          ¥{cashier.amount}
        </p>
        <p className="mt-4 text-sm text-gray-500">{t('alipay.status')}</p>
        <p className="font-medium" data-testid="cashier-status" role="status">
          {t(`alipay.states.${cashier.status}`)}
        </p>
        {refused ? (
          <p className="mt-4 rounded bg-red-50 p-3 text-red-800" role="alert">
            {refused}
          </p>
        ) : null}
        {paid && cashier.status === 'TRADE_SUCCESS' ? <p className="mt-4 text-green-800">{t('alipay.paidNoReturn')}</p> : null}
        {cashier.status === 'WAIT_BUYER_PAY' ? (
          <form method="post" action={`/sandbox/alipay/cashier/${cashier.tradeNo}/pay`} className="mt-6">
            <p className="mb-2 text-sm text-gray-500">{t('alipay.account', { buyer: BUYER_LOGON_ID })}</p>
            <button
              type="submit"
              data-testid="cashier-pay"
              className="w-full rounded-lg bg-sky-700 px-4 py-3 text-lg font-semibold text-white hover:bg-sky-800 focus:outline-none focus-visible:ring-4 focus-visible:ring-sky-300"
            >
              {t('alipay.pay', { amount: cashier.amount })}
            </button>
          </form>
        ) : null}
        <dl className="mt-6 space-y-1 text-sm text-gray-600">
          <dt className="font-medium">{t('alipay.order')}</dt>
          <dd className="m-0 break-all font-mono">
            {cashier.tradeNo} ({t('alipay.merchantOrder')} {cashier.outTradeNo})
          </dd>
          <dt className="font-medium">{t('alipay.expires')}</dt>
          <dd className="m-0 font-mono">{beijing}</dd>
          {cashier.notifyCount > 0 ? (
            <>
              <dt className="font-medium">{t('alipay.notified')}</dt>
              <dd className="m-0 break-all font-mono" data-testid="cashier-notify">
                {cashier.notifyCount}: {cashier.lastNotifyResult}
              </dd>
            </>
          ) : null}
        </dl>
      </section>
    </main>
  );
}
