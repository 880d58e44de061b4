import Link from 'next/link';
import { notFound } from 'next/navigation';
import { CredentialReviewActions } from '@/components/operator/credential-review-actions';
import { credentialDetails, REVIEW_LABELS, REVIEW_TONES } from '@/components/operator/credential-labels';
import { PermissionToggle } from '@/components/operator/permission-toggle';
import { Badge, cell, Empty, formatTime, PageTitle, Section, Table } from '@/components/operator/ui';
import { getDb } from '@/lib/db/client';
import { merchantDetail } from '@/lib/operator/merchants';
import { requireOperator } from '../../_session/require-operator';

export const dynamic = 'force-dynamic';

const STATUS_TONES = { pending: 'warn', paid: 'good', closed: 'neutral' } as const;

function Detail({ term, children, testId }: { term: string; children: React.ReactNode; testId?: string }) {
  return (
    <div className="flex flex-col gap-0.5 sm:flex-row sm:gap-4">
      <dt className="text-sm text-gray-500 sm:w-56 sm:shrink-0">{term}</dt>
      <dd className="m-0 text-sm break-all" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

export default async function MerchantDetailPage({ params }: { params: Promise<{ appId: string }> }) {
  await requireOperator();
  const { appId } = await params;
  const detail = await merchantDetail(getDb(), appId);
  if (!detail) notFound();
  const { merchant, secret } = detail;
  return (
    <>
      <p className="m-0 mb-2 text-sm">
        <Link href="/operator/merchants" className="text-teal-700 underline">
          ← Merchants · 商户
        </Link>
      </p>
      <PageTitle title={`${merchant.name}`} />
      <Section id="merchant-heading" title="Merchant · 商户">
        <dl className="m-0 flex flex-col gap-2">
          <Detail term="AppID" testId="merchant-app-id">
            <span className="font-mono">{merchant.appId}</span>
          </Detail>
          <Detail term="Order permission · 下单权限">
            <PermissionToggle appId={merchant.appId} name={merchant.name} enabled={merchant.orderPermission} />
          </Detail>
          <Detail term="Created · 创建时间">{formatTime(merchant.createdAt)}</Detail>
          <Detail term="AppSecret" testId="secret-metadata">
            Stored encrypted; never shown here. · 加密保存，此处不显示。 Created · 创建 {formatTime(secret.createdAt)}; last rotated · 最近轮换{' '}
            {secret.lastRotatedAt ? formatTime(secret.lastRotatedAt) : 'never · 从未'}; last revealed to the merchant · 最近查看{' '}
            {secret.lastRevealedAt ? formatTime(secret.lastRevealedAt) : 'never · 从未'}
          </Detail>
          <Detail term="Accounts · 账户">{detail.accounts.length === 0 ? '—' : detail.accounts.map((account) => account.email).join(', ')}</Detail>
        </dl>
      </Section>
      <Section id="merchant-credentials-heading" title="Upstream credentials · 上游凭证">
        {detail.credentials.length === 0 ? (
          <Empty>No credentials. · 暂无凭证。</Empty>
        ) : (
          <Table label="Upstream credentials · 上游凭证" head={['ID', 'Channel · 渠道', 'Details · 详情', 'Review · 审核', 'State · 状态', 'Actions · 操作']}>
            {detail.credentials.map((credential) => (
              <tr key={credential.id} data-testid={`credential-${credential.id}`}>
                <td className={`${cell} font-mono`}>{credential.id}</td>
                <td className={cell}>{credential.channel}</td>
                <td className={`${cell} font-mono text-xs`}>{credentialDetails(credential)}</td>
                <td className={cell}>
                  <Badge tone={REVIEW_TONES[credential.reviewStatus]}>{REVIEW_LABELS[credential.reviewStatus]}</Badge>
                  {credential.rejectionReason ? <p className="m-0 mt-1 text-xs text-gray-600">Reason · 原因: {credential.rejectionReason}</p> : null}
                </td>
                <td className={cell}>
                  {credential.enabled ? 'Enabled · 已启用' : 'Disabled · 已停用'}
                  {credential.usable ? ' · usable 可用' : ''}
                </td>
                <td className={cell}>
                  <CredentialReviewActions id={credential.id} reviewStatus={credential.reviewStatus} enabled={credential.enabled} />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Section>
      <Section id="merchant-orders-heading" title={`Recent orders · 最近订单 (${detail.orders.length} of ${detail.orderCount})`}>
        {detail.orders.length === 0 ? (
          <Empty>No orders yet. · 暂无订单。</Empty>
        ) : (
          <Table label="Recent orders · 最近订单" head={['Order · 订单号', 'Merchant order · 商户订单号', 'Channel · 渠道', 'Amount · 金额', 'Status · 状态', 'Created · 创建', 'Paid · 支付']}>
            {detail.orders.map((order) => (
              <tr key={order.orderNo}>
                <td className={`${cell} font-mono text-xs`}>{order.orderNo}</td>
                <td className={`${cell} font-mono text-xs`}>{order.merchantOrderNo}</td>
                <td className={cell}>{order.channel}</td>
                <td className={`${cell} whitespace-nowrap`}>
                  {order.amount} {order.currency}
                </td>
                <td className={cell}>
                  <Badge tone={STATUS_TONES[order.status as keyof typeof STATUS_TONES] ?? 'neutral'}>{order.status}</Badge>
                  {order.paidVia === 'manual' ? <span className="ml-1 text-xs text-gray-500">by hand · 人工</span> : null}
                </td>
                <td className={`${cell} whitespace-nowrap`}>{formatTime(order.createdAt)}</td>
                <td className={`${cell} whitespace-nowrap`}>{formatTime(order.paidAt)}</td>
              </tr>
            ))}
          </Table>
        )}
      </Section>
    </>
  );
}
