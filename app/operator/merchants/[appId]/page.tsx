import { approveCredentialAction, deleteCredentialAction, rejectCredentialAction, setCredentialEnabledAction } from '../../credentials/actions';
import { setOrderPermissionAction, setPoolShareAction, unlockAccountAction } from '../actions';
import { ConsoleActionForm } from '@/components/operator/console-action-form';
import { findMerchantPoolLimits } from '@/lib/channels/usdt/merchant-pool-limits';
import Link from 'next/link';
import { getTranslations } from 'next-intl/server';
import { notFound } from 'next/navigation';
import { CredentialReviewActions } from '@/components/operator/credential-review-actions';
import { REVIEW_TONES } from '@/components/operator/credential-labels';
import { describeCredential } from '@/lib/channels';
import { PermissionToggle } from '@/components/operator/permission-toggle';
import { TestOrderBadge } from '@/components/back-office/test-order-badge';
import { OrderStandingBadge } from '@/components/back-office/order-standing-badge';
import { Badge, cell, Empty, PageTitle, Section, Table } from '@/components/operator/ui';
import { getDb } from '@/lib/db/client';
import { merchantDetail } from '@/lib/operator/merchants';
import { requireOperator } from '../../_session/require-operator';
import { LocalTime } from '@/components/i18n/local-time';
import { Amount } from '@/components/i18n/amount';
import { ChannelName } from '@/components/i18n/channel-name';

export const dynamic = 'force-dynamic';


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
  const [t, review, actions, poolLimits] = await Promise.all([getTranslations('console.merchant'), getTranslations('console.review'), getTranslations('console.operatorActions'), findMerchantPoolLimits(getDb(), appId)]);
  const reasonField = { name: 'reason', label: actions('reason') };
  return (
    <>
      <p className="m-0 mb-2 text-sm">
        <Link href="/operator/merchants" className="text-teal-700 underline">
          {t('back')}
        </Link>
      </p>
      <PageTitle title={`${merchant.name}`} />
      <Section id="merchant-heading" title={t('section')}>
        <dl className="m-0 flex flex-col gap-2">
          <Detail term="AppID" testId="merchant-app-id">
            <span className="font-mono">{merchant.appId}</span>
          </Detail>
          <Detail term={t('permission')}>
            <PermissionToggle appId={merchant.appId} name={merchant.name} enabled={merchant.orderPermission} setOrderPermissionAction={setOrderPermissionAction} />
          </Detail>
          <Detail term={t('created')}><LocalTime value={merchant.createdAt} /></Detail>
          <Detail term="AppSecret" testId="secret-metadata">
            {t.rich('secret', {
              created: () => <LocalTime value={secret.createdAt} />,
              rotated: () => (secret.lastRotatedAt ? <LocalTime value={secret.lastRotatedAt} /> : t('never')),
              revealed: () => (secret.lastRevealedAt ? <LocalTime value={secret.lastRevealedAt} /> : t('never')),
            })}
          </Detail>
          <Detail term={t('accounts')} testId="merchant-accounts">{detail.accounts.length === 0 ? '—' : detail.accounts.map((account) => account.email).join(', ')}</Detail>
        </dl>
      </Section>
      <Section id="merchant-pool-heading" title={actions('poolTitle')}>
        <p className="m-0 mb-3 text-sm" data-testid="pool-share">
          {actions('poolNow', { held: String(poolLimits.maxHeldSlots), amount: String(poolLimits.maxAmountSlots) })}
        </p>
        <ConsoleActionForm
          id="pool-share-form"
          label={actions('poolTitle')}
          submitLabel={actions('poolButton')}
          fields={[
            { name: 'heldSlots', label: actions('heldSlots'), hint: actions('poolHint'), inputMode: 'text' },
            { name: 'amountSlots', label: actions('amountSlots'), hint: actions('poolHint'), inputMode: 'text' },
            reasonField,
          ]}
          action={setPoolShareAction.bind(null, merchant.appId)}
        />
      </Section>
      <Section id="merchant-sign-in-heading" title={actions('signInTitle')}>
        {detail.accounts.length === 0 ? (
          <Empty>{actions('noAccounts')}</Empty>
        ) : (
          <ul className="m-0 flex list-none flex-col gap-4 p-0">
            {detail.accounts.map((account) => (
              <li key={account.id} data-testid={`account-${account.email}`}>
                <p className="m-0 mb-2 text-sm font-mono">{account.email}</p>
                <ConsoleActionForm id={`unlock-${account.id}`} label={actions('unlockLabel', { email: account.email })} submitLabel={actions('unlockButton')} fields={[reasonField]} action={unlockAccountAction.bind(null, account.email)} />
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section id="merchant-credentials-heading" title={t('credentials')}>
        {detail.credentials.length === 0 ? (
          <Empty>{t('noCredentials')}</Empty>
        ) : (
          <Table label={t('credentials')} head={['ID', t('channel'), t('details'), t('review'), t('state'), t('actions')]}>
            {detail.credentials.map((credential) => (
              <tr key={credential.id} data-testid={`credential-${credential.id}`}>
                <td className={`${cell} font-mono`}>{credential.id}</td>
                <td className={cell}><ChannelName channel={credential.channel} /></td>
                <td className={`${cell} font-mono text-xs`} data-technical>{describeCredential(credential)}</td>
                <td className={cell}>
                  <Badge tone={REVIEW_TONES[credential.reviewStatus]}>{review(`status.${credential.reviewStatus}`)}</Badge>
                  {credential.rejectionReason ? <p className="m-0 mt-1 text-xs text-gray-600">{t('reason', { reason: credential.rejectionReason })}</p> : null}
                </td>
                <td className={cell}>
                  {credential.enabled ? t('enabled') : t('disabled')}
                  {credential.usable ? ` · ${t('usable')}` : ''}
                </td>
                <td className={cell}>
                  <CredentialReviewActions id={credential.id} reviewStatus={credential.reviewStatus} enabled={credential.enabled} actions={{ approveCredentialAction, rejectCredentialAction, setCredentialEnabledAction, deleteCredentialAction }} />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Section>
      <Section id="merchant-orders-heading" title={t('orders', { shown: detail.orders.length, total: detail.orderCount })}>
        {detail.orders.length === 0 ? (
          <Empty>{t('noOrders')}</Empty>
        ) : (
          <Table label={t('ordersLabel')} head={[t('orderNo'), t('merchantOrderNo'), t('channel'), t('amount'), t('status'), t('created'), t('paid')]}>
            {detail.orders.map((order) => (
              <tr key={order.orderNo}>
                <td className={`${cell} font-mono text-xs`}>{order.orderNo}</td>
                <td className={`${cell} font-mono text-xs`}>
                  {order.merchantOrderNo}
                  {order.isTest ? <TestOrderBadge orderNo={order.orderNo} /> : null}
                </td>
                <td className={cell}><ChannelName channel={order.channel} /></td>
                <td className={`${cell} whitespace-nowrap`}>
                  <Amount value={order.amount} currency={order.currency} />
                </td>
                <td className={cell}>
                  <OrderStandingBadge standing={order.standing} status={order.status} orderNo={order.orderNo} />
                  {order.paidVia === 'manual' ? <span className="ml-1 text-xs text-gray-600">{t('byHand')}</span> : null}
                </td>
                <td className={`${cell} whitespace-nowrap`}><LocalTime value={order.createdAt} /></td>
                <td className={`${cell} whitespace-nowrap`}><LocalTime value={order.paidAt} /></td>
              </tr>
            ))}
          </Table>
        )}
      </Section>
      <Section id="merchant-refunds-heading" title={t('refunds', { count: detail.refunds.length })}>
        {detail.refunds.length === 0 ? (
          <Empty>{t('noRefunds')}</Empty>
        ) : (
          <Table label={t('refundsLabel')} head={[t('orderNo'), t('refundNo'), t('amount'), t('refundState'), t('refundBy'), t('created')]}>
            {detail.refunds.map((refund) => (
              <tr key={refund.refundNo} data-testid={`merchant-refund-${refund.refundNo}`}>
                <td className={`${cell} font-mono text-xs`}>{refund.orderNo}</td>
                <td className={`${cell} font-mono text-xs`}>{refund.merchantRefundNo}</td>
                <td className={`${cell} whitespace-nowrap`}>
                  <Amount value={refund.amount} currency={refund.currency} />
                </td>
                <td className={cell}>
                  <span data-refund-state={refund.state}>{t.has(`refundStates.${refund.state}`) ? t(`refundStates.${refund.state}` as 'refundStates.processing') : refund.state}</span>
                  {refund.failureReason ? <div className="text-xs text-gray-600">{refund.failureReason}</div> : null}
                </td>
                <td className={`${cell} text-xs`}>{refund.createdBy}</td>
                <td className={`${cell} whitespace-nowrap`}><LocalTime value={refund.createdAt} /></td>
              </tr>
            ))}
          </Table>
        )}
      </Section>
    </>
  );
}
