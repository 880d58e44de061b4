import type { ReactNode } from 'react';
import type { CheckoutMerchant } from '@/lib/checkout/checkout-merchant';
import type { Locale } from '@/lib/i18n/locales';
import type { CheckoutT } from './checkout-locale';
import { statusOfCheckoutState } from '@/lib/orders/effective-status';
import { StateMark } from './state-mark';
import type { CheckoutEnding } from '@/lib/checkout/load-checkout';

export type CheckoutState = 'pending' | 'paid' | 'expired';

/** What every checkout page shares: the payer's language, the merchant paid, and the language link that keeps the page's state. */
export interface CheckoutFrame {
  locale: Locale;
  t: CheckoutT;
  merchant: CheckoutMerchant;
  /** Query parameters the language link keeps (e.g. that the payer came back from the upstream). */
  keep?: Record<string, string>;
  /** How the order ended, once it can no longer be paid (lib/checkout/load-checkout.ts). */
  ending?: AsJson<CheckoutEnding> | null;
}

/** The query of the payUrl, as Next.js gives it (a channel's page may read its upstream's return parameters). */
export type CheckoutSearchParams = Readonly<Record<string, string | string[] | undefined>>;

/** A value as it arrives through page props (JSON): instants as ISO strings, undefined members left out. */
export type AsJson<T> = T extends Date ? string : T extends readonly (infer Item)[] ? AsJson<Item>[] : T extends object ? { [K in keyof T]: AsJson<T[K]> } : T;

/** What a channel's checkout page is given (components/checkout/checkout-pages.tsx lists the pages by channel). */
export interface CheckoutPageProps<View> {
  frame: CheckoutFrame;
  token: string;
  view: AsJson<View>;
  searchParams: CheckoutSearchParams;
}

const TEST_IDS = { pending: 'checkout-pending', paid: 'checkout-paid', expired: 'checkout-expired' } as const;

/** The merchant bar: logo (or initial) and display name, so the payer sees whom they pay; the language link beside it. */
function MerchantBar({ frame }: { frame: CheckoutFrame }) {
  const { merchant, t, locale, keep = {} } = frame;
  const other = locale === 'zh-CN' ? 'en' : 'zh';
  return (
    <header className="merchant-bar">
      {merchant.logoPath ? (
        // eslint-disable-next-line @next/next/no-img-element
        <img className="merchant-logo" src={merchant.logoPath} alt="" width={32} height={32} />
      ) : (
        <span className="merchant-initial" aria-hidden="true">
          {Array.from(merchant.name)[0]?.toUpperCase()}
        </span>
      )}
      <p className="merchant-name" data-testid="merchant-name">
        {merchant.name}
      </p>
      <a className="language" href={`?${new URLSearchParams({ ...keep, lang: other })}`} hrefLang={other === 'zh' ? 'zh-CN' : 'en'} lang={other === 'zh' ? 'zh-CN' : 'en'} aria-label={t('languageLinkLabel')}>
        {t('languageLink')}
      </a>
    </header>
  );
}

/**
 * One state of a checkout, the same for every channel: the merchant bar, a heading with the state's mark and label,
 * the channel's content, and a foot with the order number and the way back to the shop.
 */
export function CheckoutShell({
  frame,
  state,
  title,
  orderNo,
  foot,
  wide = false,
  pill,
  children,
}: {
  frame: CheckoutFrame;
  state: CheckoutState;
  /** A card with a QR code beside its details on a wide screen (PayLayout). */
  wide?: boolean;
  /** The state's word, when the page says more than the state (a delayed confirmation); default the state's own. */
  pill?: string;
  title: string;
  orderNo?: string;
  foot?: ReactNode;
  children: ReactNode;
}) {
  const { t, locale } = frame;
  return (
    <main className={wide ? 'checkout wide' : 'checkout'} lang={locale}>
      <MerchantBar frame={frame} />
      <section className={`card state-${state}`} aria-labelledby="checkout-title" data-testid={TEST_IDS[state]} data-order-state={statusOfCheckoutState(state)}>
        <div className="state-head">
          <StateMark state={state} />
          <h1 id="checkout-title">{title}</h1>
          <span className="state-pill">{pill ?? t(`status.${state}`)}</span>
        </div>
        {children}
        {orderNo || foot ? (
          <div className="checkout-foot">
            {orderNo ? (
              <span>
                {t('order')} <span className="mono break-all">{orderNo}</span>
              </span>
            ) : null}
            {foot}
          </div>
        ) : null}
      </section>
    </main>
  );
}
