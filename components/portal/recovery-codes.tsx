'use client';

import { useTranslations } from 'next-intl';
import { FormMessage } from './field';
import { mono, note, subTitle } from './styles';

/** The ten recovery codes of a newly set-up second factor, shown this once, with what was set up (`success`). */
export function RecoveryCodes({ codes, success }: { codes: readonly string[]; success: string }) {
  const t = useTranslations('portal.account.secondFactor');
  return (
    <div data-testid="recovery-codes">
      <FormMessage success={success} />
      <h3 className={subTitle}>{t('recoveryCodesTitle')}</h3>
      <p className={`${note} mb-3`}>{t('recoveryCodesIntro')}</p>
      <ol className={`${mono} m-0 mb-3 grid grid-cols-2 gap-1 pl-6 text-sm`} aria-label={t('recoveryCodesTitle')}>
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
    </div>
  );
}
