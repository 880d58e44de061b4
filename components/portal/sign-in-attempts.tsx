import { useTranslations } from 'next-intl';
import type { SignInFailures } from '@/lib/accounts/sign-in-lockouts';
import { LocalTime } from '@/components/i18n/local-time';
import { card, mono, note, sectionTitle, table, tableWrap, td, th, warning } from './styles';

/** The owner's view of guessed passwords on the account: failed checks by network in the last day, and any lock. */
export function SignInAttempts({ email, failures }: { email: string; failures: SignInFailures }) {
  const t = useTranslations('portal.account.signIns');
  return (
    <section className={card} aria-labelledby="sign-ins-heading" data-testid="sign-in-attempts">
      <h2 id="sign-ins-heading" className={sectionTitle}>{t('heading')}</h2>
      {failures.total === 0 && failures.networks.length === 0 ? (
        <p className={note}>{t('none')}</p>
      ) : (
        <>
          <p className={`${note} mb-2`}>{t('intro', { email })}</p>
          <p className={`${note} mb-3`}>{t('total', { count: failures.total })}</p>
          {failures.newNetworksLockedUntil ? (
            <p className={`${warning} mt-0 mb-3`} role="status">
              {t.rich('newNetworksLocked', { time: () => <LocalTime value={failures.newNetworksLockedUntil!} /> })}
            </p>
          ) : null}
          <div className={tableWrap} tabIndex={0} role="region" aria-labelledby="sign-ins-heading">
            <table className={table}>
              <thead>
                <tr>
                  <th className={th}>{t('network')}</th>
                  <th className={th}>{t('failures')}</th>
                  <th className={th}>{t('state')}</th>
                </tr>
              </thead>
              <tbody>
                {failures.networks.map((network) => (
                  <tr key={network.network}>
                    <td className={`${td} ${mono}`}>{network.network}</td>
                    <td className={td}>{network.failures}</td>
                    <td className={td}>{network.lockedUntil ? t.rich('lockedUntil', { time: () => <LocalTime value={network.lockedUntil!} /> }) : t('open')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
