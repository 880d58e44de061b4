import { approveCredentialAction, deleteCredentialAction, rejectCredentialAction, setCredentialEnabledAction } from './actions';
import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import { REVIEW_TONES } from '@/components/operator/credential-labels';
import { describeCredential } from '@/lib/channels';
import { CredentialReviewActions } from '@/components/operator/credential-review-actions';
import { Badge, cell, Empty, PageTitle, Section, Table } from '@/components/operator/ui';
import type { ReviewStatus } from '@/lib/credentials/credentials';
import { backOfficeDb } from '@/app/_back-office/back-office-db';
import { listCredentialQueue, REVIEW_STATUSES } from '@/lib/operator/credential-queue';
import { requireOperator } from '../_session/require-operator';
import { LocalTime } from '@/components/i18n/local-time';
import { ChannelName } from '@/components/i18n/channel-name';

export const dynamic = 'force-dynamic';

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const FILTERS: { value: ReviewStatus | undefined; key: 'all' | ReviewStatus }[] = [
  { value: undefined, key: 'all' },
  { value: 'pending', key: 'pending' },
  { value: 'approved', key: 'approved' },
  { value: 'rejected', key: 'rejected' },
];

export default async function CredentialQueuePage({ searchParams }: { searchParams: SearchParams }) {
  await requireOperator();
  const db = await backOfficeDb(); // the replica unless this person just wrote or it lags
  const params = await searchParams;
  const status = REVIEW_STATUSES.find((candidate) => candidate === params.status);
  const [queue, t, merchantT, review] = await Promise.all([
    listCredentialQueue(db, { reviewStatus: status }),
    getTranslations('console.credentials'),
    getTranslations('console.merchant'),
    getTranslations('console.review'),
  ]);
  return (
    <>
      <PageTitle
        title={t('title')}
        intro={t('intro')}
      />
      <nav aria-label={t('filterLabel')} className="mb-3 flex flex-wrap gap-2 text-sm">
        {FILTERS.map((filter) => (
          <Link
            key={filter.key}
            href={filter.value ? `/operator/credentials?status=${filter.value}` : '/operator/credentials'}
            aria-current={filter.value === status ? 'page' : undefined}
            className={`rounded-full border px-3 py-1 no-underline ${filter.value === status ? 'border-teal-700 bg-teal-700 text-white' : 'border-gray-300 bg-white text-gray-800'}`}
          >
            {t(filter.key)}
          </Link>
        ))}
      </nav>
      <Section id="queue-heading" title={t('count', { count: queue.length })}>
        {queue.length === 0 ? (
          <Empty testId="empty-queue">{t('none')}</Empty>
        ) : (
          <Table label={t('queue')} head={['ID', t('merchant'), merchantT('channel'), merchantT('details'), merchantT('review'), merchantT('state'), t('submitted'), merchantT('actions')]}>
            {queue.map((credential) => (
              <tr key={credential.id} data-testid={`queue-credential-${credential.id}`}>
                <td className={`${cell} font-mono`}>{credential.id}</td>
                <td className={cell}>
                  <Link href={`/operator/merchants/${credential.merchantAppId}`} className="text-teal-800 underline">
                    {credential.merchantName}
                  </Link>
                  <span className="block font-mono text-xs text-gray-500">{credential.merchantAppId}</span>
                </td>
                <td className={cell}><ChannelName channel={credential.channel} /></td>
                <td className={`${cell} font-mono text-xs`} data-technical>{describeCredential(credential)}</td>
                <td className={cell} data-testid="review-status">
                  <Badge tone={REVIEW_TONES[credential.reviewStatus]}>{review(`status.${credential.reviewStatus}`)}</Badge>
                  {credential.rejectionReason ? <p className="m-0 mt-1 text-xs text-gray-600">{merchantT('reason', { reason: credential.rejectionReason })}</p> : null}
                </td>
                <td className={cell} data-testid="credential-state">
                  {credential.enabled ? merchantT('enabled') : merchantT('disabled')}
                  {credential.usable ? ` · ${merchantT('usable')}` : ''}
                </td>
                <td className={`${cell} whitespace-nowrap`}><LocalTime value={credential.createdAt} /></td>
                <td className={cell}>
                  <CredentialReviewActions id={credential.id} reviewStatus={credential.reviewStatus} enabled={credential.enabled} actions={{ approveCredentialAction, rejectCredentialAction, setCredentialEnabledAction, deleteCredentialAction }} />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Section>
    </>
  );
}
