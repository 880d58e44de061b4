import Link from 'next/link';
import { credentialDetails, REVIEW_LABELS, REVIEW_TONES } from '@/components/operator/credential-labels';
import { CredentialReviewActions } from '@/components/operator/credential-review-actions';
import { Badge, cell, Empty, formatTime, PageTitle, Section, Table } from '@/components/operator/ui';
import type { ReviewStatus } from '@/lib/credentials/credentials';
import { getDb } from '@/lib/db/client';
import { listCredentialQueue, REVIEW_STATUSES } from '@/lib/operator/credential-queue';
import { requireOperator } from '../_session/require-operator';

export const dynamic = 'force-dynamic';

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const FILTERS: { value: ReviewStatus | undefined; label: string }[] = [
  { value: undefined, label: 'All · 全部' },
  { value: 'pending', label: 'Pending · 待审核' },
  { value: 'approved', label: 'Approved · 已通过' },
  { value: 'rejected', label: 'Rejected · 已驳回' },
];

export default async function CredentialQueuePage({ searchParams }: { searchParams: SearchParams }) {
  await requireOperator();
  const params = await searchParams;
  const status = REVIEW_STATUSES.find((candidate) => candidate === params.status);
  const queue = await listCredentialQueue(getDb(), { reviewStatus: status });
  return (
    <>
      <PageTitle
        title="Credential review · 凭证审核"
        intro="Merchants' ALIPAY and WECHAT credentials, pending ones first. Only non-secret fields are shown; private keys and the APIv3 key are never read here. The merchant sees the decision (and a rejection's reason) in the portal. / 商户的支付宝、微信支付凭证，待审核在前。仅显示非敏感字段；商户可在后台看到审核结果及驳回原因。"
      />
      <nav aria-label="Filter by review status · 按审核状态筛选" className="mb-3 flex flex-wrap gap-2 text-sm">
        {FILTERS.map((filter) => (
          <Link
            key={filter.label}
            href={filter.value ? `/operator/credentials?status=${filter.value}` : '/operator/credentials'}
            aria-current={filter.value === status ? 'page' : undefined}
            className={`rounded-full border px-3 py-1 no-underline ${filter.value === status ? 'border-teal-700 bg-teal-700 text-white' : 'border-gray-300 bg-white text-gray-800'}`}
          >
            {filter.label}
          </Link>
        ))}
      </nav>
      <Section id="queue-heading" title={`${queue.length} credential(s) · 个凭证`}>
        {queue.length === 0 ? (
          <Empty testId="empty-queue">Nothing to review. · 没有需要审核的凭证。</Empty>
        ) : (
          <Table label="Credential review queue · 凭证审核队列" head={['ID', 'Merchant · 商户', 'Channel · 渠道', 'Details · 详情', 'Review · 审核', 'State · 状态', 'Submitted · 提交', 'Actions · 操作']}>
            {queue.map((credential) => (
              <tr key={credential.id} data-testid={`queue-credential-${credential.id}`}>
                <td className={`${cell} font-mono`}>{credential.id}</td>
                <td className={cell}>
                  <Link href={`/operator/merchants/${credential.merchantAppId}`} className="text-teal-800 underline">
                    {credential.merchantName}
                  </Link>
                  <span className="block font-mono text-xs text-gray-500">{credential.merchantAppId}</span>
                </td>
                <td className={cell}>{credential.channel}</td>
                <td className={`${cell} font-mono text-xs`}>{credentialDetails(credential)}</td>
                <td className={cell} data-testid="review-status">
                  <Badge tone={REVIEW_TONES[credential.reviewStatus]}>{REVIEW_LABELS[credential.reviewStatus]}</Badge>
                  {credential.rejectionReason ? <p className="m-0 mt-1 text-xs text-gray-600">Reason · 原因: {credential.rejectionReason}</p> : null}
                </td>
                <td className={cell} data-testid="credential-state">
                  {credential.enabled ? 'Enabled · 已启用' : 'Disabled · 已停用'}
                  {credential.usable ? ' · usable 可用' : ''}
                </td>
                <td className={`${cell} whitespace-nowrap`}>{formatTime(credential.createdAt)}</td>
                <td className={cell}>
                  <CredentialReviewActions id={credential.id} reviewStatus={credential.reviewStatus} enabled={credential.enabled} />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Section>
    </>
  );
}
