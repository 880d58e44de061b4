import { getTranslations } from 'next-intl/server';
import { LocalTime } from '@/components/i18n/local-time';
import { CredentialActions } from '@/components/portal/credential-actions';
import { ChannelCredentialForm } from '@/components/portal/credential-forms';
import { badge, card, note, pageTitle, sectionTitle, table, td, th } from '@/components/portal/styles';
import { credentialChannels, describeCredential } from '@/lib/channels';
import { listMerchantCredentials } from '@/lib/credentials/credentials';
import { getDb } from '@/lib/db/client';
import { stepUpAsk } from '@/lib/accounts/step-up';
import { requireMerchant } from '../../_session/require-merchant';
import { deleteCredentialAction, setCredentialEnabledAction, submitCredentialAction } from './actions';
import { ChannelName } from '@/components/i18n/channel-name';

/**
 * Below the medium breakpoint each row is a card: the cells stack and each shows its column name (data-label), so
 * nothing is cut off on a phone; from md up it is a table whose long cells wrap instead of widening it.
 */
const stackedCell = `${td} max-md:flex max-md:gap-2 max-md:border-0 max-md:px-0 max-md:py-1 max-md:whitespace-normal max-md:before:min-w-24 max-md:before:text-xs max-md:before:font-semibold max-md:before:text-gray-600 max-md:before:content-[attr(data-label)]`;

export default async function CredentialsPage() {
  const merchant = await requireMerchant('credentials');
  const [credentials, t, stepUp] = await Promise.all([
    listMerchantCredentials(getDb(), merchant.merchantId),
    getTranslations('portal.credentials'),
    stepUpAsk(getDb(), merchant, new Date(), 'nothing'),
  ]);
  return (
    <>
      <h1 className={pageTitle}>{t('title')}</h1>
      <p className={`${note} mb-4`}>{t.rich('intro', { code: (chunks) => <code>{chunks}</code> })}</p>
      <section className={card} aria-labelledby="credentials-heading">
        <h2 id="credentials-heading" className={sectionTitle}>
          {t('yours')}
        </h2>
        {credentials.length === 0 ? (
          <p className="m-0" data-testid="no-credentials">
            {t('none')}
          </p>
        ) : (
          <div className="rounded-lg md:border md:border-gray-200">
            <table className={`${table} max-md:block`} data-testid="credentials-table">
              <thead className="max-md:hidden">
                <tr>
                  <th scope="col" className={th}>
                    ID
                  </th>
                  <th scope="col" className={th}>
                    {t('channel')}
                  </th>
                  <th scope="col" className={th}>
                    {t('review')}
                  </th>
                  <th scope="col" className={th}>
                    {t('state')}
                  </th>
                  <th scope="col" className={`${th} hidden lg:table-cell`}>
                    {t('submitted')}
                  </th>
                  <th scope="col" className={th}>
                    {t('actions')}
                  </th>
                </tr>
              </thead>
              <tbody className="max-md:block">
                {credentials.map((credential) => (
                  <tr key={credential.id} data-testid={`credential-${credential.id}`} className="max-md:mb-3 max-md:block max-md:rounded-lg max-md:border max-md:border-gray-200 max-md:p-3">
                    <td className={`${stackedCell} font-mono`} data-label="ID">
                      {credential.id}
                    </td>
                    <td className={`${stackedCell} whitespace-normal`} data-label={t('channel')}>
                      <div>
                        <strong><ChannelName channel={credential.channel} /></strong>
                        <div className="max-w-80 font-mono text-xs break-all text-gray-700" data-technical>{describeCredential(credential)}</div>
                      </div>
                    </td>
                    <td className={stackedCell} data-label={t('review')} data-testid="credential-review">
                      <div>
                        <span className={badge(credential.reviewStatus)}>{t(`reviewStatus.${credential.reviewStatus}`)}</span>
                        {credential.reviewStatus === 'rejected' && credential.rejectionReason ? (
                          <p className={`${note} mt-1 max-w-60 whitespace-normal`} data-testid="credential-rejection">
                            {t('reason', { reason: credential.rejectionReason })}
                          </p>
                        ) : null}
                      </div>
                    </td>
                    <td className={stackedCell} data-label={t('state')} data-testid="credential-state">
                      {credential.enabled ? t('enabled') : t('disabled')}
                      {credential.usable ? ` · ${t('usable')}` : ''}
                    </td>
                    <td className={`${stackedCell} md:hidden lg:table-cell`} data-label={t('submitted')}>
                      <LocalTime value={credential.createdAt} />
                    </td>
                    <td className={`${stackedCell} md:min-w-56 md:whitespace-normal`} data-label={t('actions')}>
                      <CredentialActions id={credential.id} enabled={credential.enabled} actions={{ setCredentialEnabledAction, deleteCredentialAction }} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      {credentialChannels().map((channel) => (
        <ChannelCredentialForm key={channel.name} channel={channel.name} form={channel.credentials.form} submitCredentialAction={submitCredentialAction} stepUp={stepUp} />
      ))}
    </>
  );
}
