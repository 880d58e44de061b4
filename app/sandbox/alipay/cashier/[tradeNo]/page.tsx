import { cookies, headers } from 'next/headers';
import { notFound } from 'next/navigation';
import { getDb } from '@/lib/db/client';
import { LOCALE_COOKIE } from '@/lib/i18n/locales';
import { sandboxLanguage } from '@/lib/i18n/sandbox-language';
import { sandboxEnabled } from '@/lib/sandbox/sandbox-enabled';
import { sandboxCashier } from '@/sandbox/alipay/cashier-view';

export const dynamic = 'force-dynamic';

const MESSAGES = {
  en: {
    banner: 'SANDBOX: simulated Alipay, no real money moves.',
    title: 'Alipay cashier',
    amount: 'Amount',
    status: 'Status',
    states: { WAIT_BUYER_PAY: 'Waiting for payment', TRADE_SUCCESS: 'Paid', TRADE_CLOSED: 'Closed' },
    pay: (amount: string) => `Pay ¥${amount}`,
    account: 'Paying as the sandbox buyer san***@sandbox.com',
    order: 'Trade',
    merchantOrder: 'merchant order',
    expires: 'Pay before (Beijing time)',
    notified: 'Notifications sent',
    paidNoReturn: 'Paid. The merchant gave no return page.',
    language: '中文',
  },
  zh: {
    banner: '沙箱环境：模拟支付宝，不涉及真实资金。',
    title: '支付宝收银台',
    amount: '付款金额',
    status: '状态',
    states: { WAIT_BUYER_PAY: '等待付款', TRADE_SUCCESS: '已付款', TRADE_CLOSED: '已关闭' },
    pay: (amount: string) => `确认付款 ¥${amount}`,
    account: '以沙箱买家 san***@sandbox.com 付款',
    order: '交易号',
    merchantOrder: '商户订单',
    expires: '付款截止（北京时间）',
    notified: '已发送通知',
    paidNoReturn: '已付款。商户未提供返回页面。',
    language: 'English',
  },
};

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
  const { refused, paid, lang } = await searchParams;
  const cashier = await sandboxCashier(getDb(), tradeNo);
  if (!cashier) notFound();
  const language = sandboxLanguage({ lang, cookie: (await cookies()).get(LOCALE_COOKIE)?.value, acceptLanguage: (await headers()).get('accept-language') });
  const t = MESSAGES[language];
  const beijing = new Date(cashier.timeExpire.getTime() + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');
  return (
    <main className="min-h-screen bg-sky-50 px-4 py-8" lang={language === 'zh' ? 'zh-CN' : 'en'}>
      <section className="mx-auto max-w-md rounded-2xl bg-white p-6 shadow-md" aria-labelledby="cashier-title">
        <div className="flex items-start justify-between gap-4">
          <p className="text-sm font-medium text-amber-700">{t.banner}</p>
          <a className="text-sm text-sky-700 underline" href={`?lang=${language === 'zh' ? 'en' : 'zh'}`} hrefLang={language === 'zh' ? 'en' : 'zh'}>
            {t.language}
          </a>
        </div>
        <h1 id="cashier-title" className="mt-4 text-2xl font-semibold text-sky-700">
          {t.title}
        </h1>
        <p className="mt-2 text-gray-700">{cashier.subject}</p>
        {cashier.body ? <p className="text-sm text-gray-500">{cashier.body}</p> : null}
        <p className="mt-4 text-sm text-gray-500">{t.amount}</p>
        <p className="text-4xl font-bold" data-testid="cashier-amount">
          ¥{cashier.amount}
        </p>
        <p className="mt-4 text-sm text-gray-500">{t.status}</p>
        <p className="font-medium" data-testid="cashier-status" role="status">
          {t.states[cashier.status]}
        </p>
        {refused ? (
          <p className="mt-4 rounded bg-red-50 p-3 text-red-800" role="alert">
            {refused}
          </p>
        ) : null}
        {paid && cashier.status === 'TRADE_SUCCESS' ? <p className="mt-4 text-green-800">{t.paidNoReturn}</p> : null}
        {cashier.status === 'WAIT_BUYER_PAY' ? (
          <form method="post" action={`/sandbox/alipay/cashier/${cashier.tradeNo}/pay`} className="mt-6">
            <p className="mb-2 text-sm text-gray-500">{t.account}</p>
            <button
              type="submit"
              data-testid="cashier-pay"
              className="w-full rounded-lg bg-sky-600 px-4 py-3 text-lg font-semibold text-white hover:bg-sky-700 focus:outline-none focus-visible:ring-4 focus-visible:ring-sky-300"
            >
              {t.pay(cashier.amount)}
            </button>
          </form>
        ) : null}
        <dl className="mt-6 space-y-1 text-sm text-gray-600">
          <dt className="font-medium">{t.order}</dt>
          <dd className="m-0 break-all font-mono">
            {cashier.tradeNo} ({t.merchantOrder} {cashier.outTradeNo})
          </dd>
          <dt className="font-medium">{t.expires}</dt>
          <dd className="m-0 font-mono">{beijing}</dd>
          {cashier.notifyCount > 0 ? (
            <>
              <dt className="font-medium">{t.notified}</dt>
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
