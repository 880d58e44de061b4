import { notFound } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { card, note, pageTitle, sectionTitle } from '@/components/portal/styles';
import { TestOrderForm } from '@/components/portal/test-order-form';
import { TEST_ORDER_METHODS } from '@/lib/portal/test-order';
import { sandboxEnabled } from '@/lib/sandbox/sandbox-enabled';
import { requireMerchant } from '../../_session/require-merchant';
import { createTestOrderAction } from './actions';

/** Test mode: only while the sandbox is on, so every order made here is paid by the simulators. */
export default async function TestModePage() {
  await requireMerchant();
  if (!sandboxEnabled()) notFound();
  const t = await getTranslations('portal.test');
  return (
    <>
      <h1 className={pageTitle}>{t('title')}</h1>
      <p className={`${note} mb-4`}>{t('intro')}</p>
      <section className={card} aria-labelledby="test-order-heading">
        <h2 id="test-order-heading" className={sectionTitle}>
          {t('createTitle')}
        </h2>
        <TestOrderForm methods={TEST_ORDER_METHODS} defaultNotifyUrl="" createTestOrderAction={createTestOrderAction} />
      </section>
      <section className={card} aria-labelledby="test-steps-heading">
        <h2 id="test-steps-heading" className={sectionTitle}>
          {t('stepsTitle')}
        </h2>
        <ol className="m-0 pl-5 text-sm leading-relaxed">
          <li>{t('step1')}</li>
          <li>{t('step2')}</li>
          <li>{t('step3')}</li>
        </ol>
      </section>
    </>
  );
}
