import { debugSignatureAction } from './actions';
import { getTranslations } from 'next-intl/server';
import { SignatureDebugger } from '@/components/portal/signature-debugger';
import { requireMerchant } from '../../_session/require-merchant';
import { note, pageTitle } from '@/components/portal/styles';

export default async function SignaturePage() {
  const merchant = await requireMerchant('developerTools');
  const t = await getTranslations('portal.signature');
  return (
    <>
      <h1 className={pageTitle}>{t('title')}</h1>
      <p className={`${note} mb-4`}>{t('intro')}</p>
      <SignatureDebugger appId={merchant.appId} debugSignatureAction={debugSignatureAction} />
    </>
  );
}
