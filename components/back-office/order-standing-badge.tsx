import { useTranslations } from 'next-intl';
import { STANDING_TONES, type OrderStanding } from '@/lib/orders/order-standing';

const TONE_CLASSES: Record<(typeof STANDING_TONES)[OrderStanding], string> = {
  waiting: 'bg-amber-100 text-amber-900',
  done: 'bg-emerald-100 text-emerald-800',
  refunded: 'bg-sky-100 text-sky-900',
  ended: 'bg-gray-200 text-gray-800',
};

/**
 * An order's standing as a pill, the same in the portal and the console: its words (common.orderStanding) and tone
 * by standing; `data-order-state` keeps the effective status the tests and scripts read, `data-order-standing` the rest.
 */
export function OrderStandingBadge({ standing, status, orderNo, testId }: { standing: OrderStanding; status: string; orderNo?: string; testId?: string }) {
  const t = useTranslations('common.orderStanding');
  return (
    <span
      className={`inline-block rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ${TONE_CLASSES[STANDING_TONES[standing]]}`}
      data-order-state={status}
      data-order-standing={standing}
      data-order-no={orderNo}
      data-testid={testId}
    >
      {t(standing)}
    </span>
  );
}
