import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { otherLanguageHref, sandboxTranslations } from '@/components/sandbox/sandbox-locale';
import { getDb } from '@/lib/db/client';
import { sandboxEnabled } from '@/lib/sandbox/sandbox-enabled';
import { visitorIp } from '@/sandbox/wechat/h5-visit';
import { sandboxWechatPayer } from '@/sandbox/wechat/payer-view';

export const dynamic = 'force-dynamic';

/**
 * The simulated WeChat payer: what scanning a native code_url (its `pr` is this page's id) or opening an h5_url
 * leads to, with a Pay button instead of a real wallet. Pay sends the signed notification and, for h5, goes on to
 * the redirect_url the merchant appended.
 */
export default async function SandboxWechatPayer({
  params,
  searchParams,
}: {
  params: Promise<{ payId: string }>;
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  if (!sandboxEnabled()) notFound();
  const { payId } = await params;
  const query = await searchParams;
  const requestHeaders = await headers();
  const payer = await sandboxWechatPayer(getDb(), payId, { package: query.package, payerIp: visitorIp(requestHeaders) });
  if (!payer) notFound();
  const { locale, t } = await sandboxTranslations(query.lang);
  /** The Pay form carries the page's language to the confirmation's redirect (and its refusal text). */
  const language = locale === 'zh-CN' ? 'zh' : 'en';
  const other = language === 'zh' ? 'en' : 'zh';
  return (
    <main className="checkout" lang={locale}>
      <section className="card" aria-labelledby="payer-title">
        <a className="language" href={otherLanguageHref(locale, query)} hrefLang={other} lang={other}>
          {t('languageLink')}
        </a>
        <p className="warn">{t('wechat.banner')}</p>
        <h1 id="payer-title">{t('wechat.title')}</h1>
        <p>{payer.tradeType === 'MWEB' ? t('wechat.h5') : t('wechat.scanned')}</p>
        <p>{payer.description}</p>
        <p className="label">{t('wechat.amount')}</p>
        <p className="amount" data-testid="payer-amount">
          ¥{payer.amount}
        </p>
        <p className="label">{t('wechat.merchant')}</p>
        <p className="mono">{payer.mchId}</p>
        <p className="label">{t('wechat.status')}</p>
        <p className="status" data-testid="payer-status" role="status">
          {t(`wechat.states.${payer.tradeState}`)}
        </p>
        {query.refused ? (
          <p className="warn" role="alert">
            {query.refused}
          </p>
        ) : null}
        {payer.refusal ? (
          <p className="warn" role="alert" data-testid="payer-refused">
            {t(`wechat.refusals.${payer.refusal}`)}
          </p>
        ) : null}
        {payer.tradeState === 'NOTPAY' && !payer.refusal ? (
          <form method="post" action={`/sandbox/wechat/pay/${payer.payId}/confirm`}>
            {query.redirect_url ? <input type="hidden" name="redirect_url" value={query.redirect_url} /> : null}
            {query.package ? <input type="hidden" name="package" value={query.package} /> : null}
            <input type="hidden" name="lang" value={language} />
            <button type="submit" data-testid="payer-pay" className="w-full">
              {t('wechat.pay', { amount: payer.amount })}
            </button>
          </form>
        ) : null}
        {payer.tradeState === 'SUCCESS' ? <p>{t('wechat.paid')}</p> : null}
        <p className="label">{t('wechat.order')}</p>
        <p className="mono">{payer.outTradeNo}</p>
        <p className="label">{t('wechat.expires')}</p>
        <p className="mono">{payer.timeExpire.toISOString()}</p>
        {payer.notifyCount > 0 ? (
          <>
            <p className="label">{t('wechat.notifications')}</p>
            <p className="mono" data-testid="payer-notify">
              {payer.notifyCount}: {payer.lastNotifyResult}
            </p>
          </>
        ) : null}
      </section>
    </main>
  );
}
