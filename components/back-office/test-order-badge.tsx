import { getTranslations } from 'next-intl/server';

/**
 * The mark of a test order (the portal's test-order form made it) wherever the back office shows an order, so a test
 * is never read as a live payment.
 */
export async function TestOrderBadge({ orderNo }: { orderNo: string }) {
  const t = await getTranslations('common.testOrder');
  return (
    <span
      className="ml-1 inline-block rounded-full border border-violet-300 bg-violet-50 px-2 py-0.5 text-xs font-medium whitespace-nowrap text-violet-800"
      title={t('title')}
      data-testid="test-order-badge"
      data-order-no={orderNo}
    >
      {t('badge')}
    </span>
  );
}
