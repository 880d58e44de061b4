import type { Locale } from '@/lib/i18n/locales';
import type { CheckoutT } from './checkout-locale';
import { BackToShop } from './back-to-shop';
import { CheckoutShell, type CheckoutFrame } from './checkout-shell';

/** A payUrl whose order was closed long ago (410): said in the payer's language, with the way back to the shop. */
export function CheckoutGone({ frame, redirectUrl }: { frame: CheckoutFrame; redirectUrl: string | null }) {
  const { t, merchant } = frame;
  return (
    <CheckoutShell frame={frame} state="expired" title={t('gone.title')}>
      <p role="alert" data-testid="checkout-gone">
        {t('gone.text')}
      </p>
      <BackToShop t={t} merchantName={merchant.name} redirectUrl={redirectUrl} button />
    </CheckoutShell>
  );
}

/**
 * An unknown payUrl token (404): no merchant to name, so the page says what happened and what to do, in the language
 * the payer's browser asks for (a 404 has no page state a language link could keep).
 */
export function CheckoutNotFound({ locale, t }: { locale: Locale; t: CheckoutT }) {
  return (
    <main className="checkout" lang={locale}>
      <section className="card state-expired" aria-labelledby="checkout-title" data-testid="checkout-not-found">
        <div className="state-head">
          <svg className="state-mark" viewBox="0 0 36 36" aria-hidden="true">
            <circle cx="18" cy="18" r="18" fill="#6b7280" />
            <path d="M18 10v10M18 25.5v.5" fill="none" stroke="#fff" strokeWidth="3.4" strokeLinecap="round" />
          </svg>
          <h1 id="checkout-title">{t('notFound.title')}</h1>
        </div>
        <p>{t('notFound.text')}</p>
      </section>
    </main>
  );
}
