import type { ReactNode } from 'react';
import type { CheckoutLanguage } from '@/lib/i18n/checkout-messages';
import { LanguageLink } from './language-link';

/** What every card of a channel's checkout shows around its content: the language link on top, the order number below. */
export interface CheckoutCardFrame {
  language: CheckoutLanguage;
  texts: { language: string; order: string };
  orderNo: string;
  /** Query parameters the language link keeps (e.g. that the payer came back from the upstream). */
  keep?: Record<string, string>;
  /** Lets a long order number wrap on narrow screens. */
  breakOrderNo?: boolean;
}

const STATES = {
  pending: { titleId: 'pay-title', testId: 'checkout-pending' },
  paid: { titleId: 'paid-title', testId: 'checkout-paid' },
  expired: { titleId: 'expired-title', testId: 'checkout-expired' },
} as const;

/** One state of a checkout as a card titled by its heading. */
export function CheckoutCard({ frame, state, title, children }: { frame: CheckoutCardFrame; state: keyof typeof STATES; title: ReactNode; children: ReactNode }) {
  const { titleId, testId } = STATES[state];
  return (
    <section className="card" aria-labelledby={titleId} data-testid={testId}>
      <LanguageLink language={frame.language} label={frame.texts.language} keep={frame.keep} />
      <h1 id={titleId}>{title}</h1>
      {children}
      <p className="label">{frame.texts.order}</p>
      <p className={frame.breakOrderNo ? 'mono break-all' : 'mono'}>{frame.orderNo}</p>
    </section>
  );
}

/** The page around the card, in the payer's language. */
export function CheckoutMain({ language, children }: { language: CheckoutLanguage; children: ReactNode }) {
  return (
    <main className="checkout" lang={language === 'zh' ? 'zh-CN' : 'en'}>
      {children}
    </main>
  );
}
