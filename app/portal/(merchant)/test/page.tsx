import { notFound } from 'next/navigation';
import { getTranslations } from 'next-intl/server';
import { card, note, pageTitle, sectionTitle } from '@/components/portal/styles';
import { TestOrderForm } from '@/components/portal/test-order-form';
import { TEST_ORDER_METHODS } from '@/lib/portal/test-order';
import { sandboxEnabled } from '@/lib/sandbox/sandbox-enabled';
import { requireMerchant } from '../../_session/require-merchant';
import { addSandboxCredentialAction, createTestOrderAction } from './actions';
import { SandboxCredentialButtons } from '@/components/portal/sandbox-credential-buttons';
import { CREDENTIAL_CHANNEL_NAMES } from '@/lib/channels/channel-names';
import { listMerchantCredentials } from '@/lib/credentials/credentials';
import { getDb } from '@/lib/db/client';

/** Test mode: only while the sandbox is on, so every order made here is paid by the simulators. */
export default async function TestModePage() {
  const merchant = await requireMerchant('developerTools');
  if (!sandboxEnabled()) notFound();
  const [t, credentials] = await Promise.all([getTranslations('portal.test'), listMerchantCredentials(getDb(), merchant.merchantId)]);
  const credentialChannels = CREDENTIAL_CHANNEL_NAMES.map((name) => ({
    name,
    label: t(`channels.${name}`),
    usable: credentials.some((credential) => credential.channel === name && credential.usable),
  }));
  // Every method of every channel, in words ("支付宝（手机网站）"), for the form's choices.
  const methodLabels = Object.fromEntries(
    Object.values(TEST_ORDER_METHODS)
      .flat()
      .map((method) => [method, t.has(`methods.${method}`) ? t(`methods.${method}`) : method]),
  );
  return (
    <>
      <h1 className={pageTitle}>{t('title')}</h1>
      <p className={`${note} mb-4`}>{t('intro')}</p>
      <section className={card} aria-labelledby="sandbox-credentials-heading">
        <h2 id="sandbox-credentials-heading" className={sectionTitle}>
          {t('sandboxCredentialsTitle')}
        </h2>
        <p className={`${note} mb-3`}>{t('sandboxCredentialsIntro')}</p>
        <SandboxCredentialButtons channels={credentialChannels} addSandboxCredentialAction={addSandboxCredentialAction} />
      </section>
      <section className={card} aria-labelledby="test-order-heading">
        <h2 id="test-order-heading" className={sectionTitle}>
          {t('createTitle')}
        </h2>
        <TestOrderForm methods={TEST_ORDER_METHODS} methodLabels={methodLabels} defaultNotifyUrl="" createTestOrderAction={createTestOrderAction} />
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
