import { assignTransferAction, completeOrderAction, dismissAttentionAction, resendNotificationAction } from './actions';
import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { getTranslations } from 'next-intl/server';
import { AttentionItemActions } from '@/components/operator/attention-actions';
import { Badge, cell, Empty, PageTitle, Section, Table, type Tone } from '@/components/operator/ui';
import { backOfficeDb } from '@/app/_back-office/back-office-db';
import { listAttention, type LinkedOrder, type TransferItem } from '@/lib/operator/attention';
import { requireOperator } from '../_session/require-operator';
import { ErrorInWords } from '@/components/i18n/error-in-words';
import { LocalTime } from '@/components/i18n/local-time';
import { Amount } from '@/components/i18n/amount';
import { ServiceProblems } from '@/components/operator/service-problems';
import { SignInLockouts } from '@/components/operator/sign-in-lockouts';
import { unlockAccountAction } from '../merchants/actions';

const ATTENTION_ACTIONS = { assignTransferAction, completeOrderAction, dismissAttentionAction, resendNotificationAction };

export const dynamic = 'force-dynamic';

const PROBLEM_TONES: Record<TransferItem['problem'], Tone> = { unmatched: 'bad', short: 'warn', over: 'warn', late: 'warn', wrong_amount: 'warn' };

function OrderCell({ order }: { order: LinkedOrder | null }) {
  const status = useTranslations('console.merchant.orderStatus');
  if (!order) return <span className="text-gray-500">—</span>;
  return (
    <span className="flex flex-col">
      <Link href={`/operator/merchants/${order.appId}`} className="font-mono text-xs text-teal-800 underline">
        {order.orderNo}
      </Link>
      <span className="font-mono text-xs text-gray-500" translate="no">
        {order.merchantOrderNo}
      </span>
      <span className="text-xs">
        <Amount value={order.payAmount} currency={order.currency} /> · {status.has(order.status) ? status(order.status as 'paid') : order.status}
      </span>
    </span>
  );
}

const canComplete = (order: LinkedOrder | null) => order !== null && order.status !== 'paid';

export default async function AttentionPage() {
  await requireOperator();
  const db = await backOfficeDb(); // the replica unless this person just wrote or it lags
  const [{ service, transfers, callbacks, notifications, refunds, findings, signIns }, t, tr] = await Promise.all([listAttention(db), getTranslations('console.attention'), getTranslations('console.reconciliation')]);
  return (
    <>
      <PageTitle
        title={t('title')}
        intro={t('intro')}
      />
      <ServiceProblems problems={service} />
      <Section id="transfers-heading" title={t('transfers', { count: transfers.length })}>
        {transfers.length === 0 ? (
          <Empty testId="no-transfers">{t('nothing')}</Empty>
        ) : (
          <Table label={t('transfersTable')} head={[t('problem'), t('amount'), t('to'), t('from'), t('transaction'), t('blockTime'), t('order'), t('actions')]}>
            {transfers.map((item) => (
              <tr key={item.id} data-testid={`transfer-${item.id}`}>
                <td className={cell}>
                  <Badge tone={PROBLEM_TONES[item.problem]}>{t(`problems.${item.problem}`)}</Badge>
                </td>
                <td className={`${cell} font-mono`}><Amount value={item.amount} currency="USDT" /></td>
                <td className={`${cell} font-mono text-xs break-all`}>{item.toAddress}</td>
                <td className={`${cell} font-mono text-xs break-all`}>{item.fromAddress}</td>
                <td className={`${cell} max-w-[12rem] font-mono text-xs break-all`}>{item.transactionId}</td>
                <td className={`${cell} whitespace-nowrap`}><LocalTime value={item.blockTime} /></td>
                <td className={cell}>
                  <OrderCell order={item.order} />
                </td>
                <td className={cell}>
                  <AttentionItemActions
                    actions={ATTENTION_ACTIONS}
                    kind="transfer"
                    itemId={item.id}
                    label={t('transferLabel', { id: item.id })}
                    canComplete={canComplete(item.order)}
                    canAssign={!item.order}
                    orderNo={item.order?.orderNo}
                    completionWarning={item.shortBy && item.order ? t('shortCompletion', { amount: item.amount, due: item.order.payAmount, shortBy: item.shortBy }) : undefined}
                  />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Section>
      <Section id="callbacks-heading" title={t('callbacks', { count: callbacks.length })}>
        {callbacks.length === 0 ? (
          <Empty testId="no-callbacks">{t('nothing')}</Empty>
        ) : (
          <Table label={t('callbacksTable')} head={[t('verdict'), t('channel'), t('received'), t('outTradeNo'), t('detail'), t('order'), t('actions')]}>
            {callbacks.map((item) => (
              <tr key={item.id} data-testid={`callback-${item.id}`}>
                <td className={cell}>
                  <Badge tone="bad">{t.has(`verdicts.${item.verdict}`) ? t(`verdicts.${item.verdict}` as 'verdicts.malformed') : item.verdict}</Badge>
                </td>
                <td className={cell}>
                  {item.channel} <span className="text-xs text-gray-500">{t.has(`callbackKinds.${item.kind}`) ? t(`callbackKinds.${item.kind}` as 'callbackKinds.callback') : item.kind}</span>
                </td>
                <td className={`${cell} whitespace-nowrap`}><LocalTime value={item.receivedAt} /></td>
                <td className={`${cell} font-mono text-xs`}>{item.outTradeNo ?? '—'}</td>
                <td className={`${cell} max-w-[16rem] text-xs break-words`} data-technical>{item.detail ?? '—'}</td>
                <td className={cell}>
                  <OrderCell order={item.order} />
                </td>
                <td className={cell}>
                  <AttentionItemActions actions={ATTENTION_ACTIONS} kind="callback" itemId={item.id} label={t('callbackLabel', { id: item.id })} canComplete={canComplete(item.order)} orderNo={item.order?.orderNo} />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Section>
      <Section id="notifications-heading" title={t('notifications', { count: notifications.length })}>
        {notifications.length === 0 ? (
          <Empty testId="no-notifications">{t('nothing')}</Empty>
        ) : (
          <Table label={t('notificationsTable')} head={[t('order'), t('notifyUrl'), t('cycle'), t('attempts'), t('lastError'), t('failed'), t('actions')]}>
            {notifications.map((item) => (
              <tr key={item.id} data-testid={`notification-${item.id}`}>
                <td className={cell}>
                  <OrderCell order={item.order} />
                </td>
                <td className={`${cell} max-w-[14rem] font-mono text-xs break-all`} data-technical>{item.notifyUrl ?? '—'}</td>
                <td className={cell}>{item.cycle}</td>
                <td className={cell}>{item.attempts}</td>
                <td className={`${cell} max-w-[16rem] text-xs break-words`}>{item.lastError ? <ErrorInWords error={item.lastError} /> : '—'}</td>
                <td className={`${cell} whitespace-nowrap`}><LocalTime value={item.failedAt} /></td>
                <td className={cell}>
                  <AttentionItemActions actions={ATTENTION_ACTIONS} kind="notification" itemId={item.id} label={t('notificationLabel', { orderNo: item.order.orderNo })} canComplete={false} />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Section>
      <Section id="refunds-heading" title={t('refunds', { count: refunds.length })}>
        {refunds.length === 0 ? (
          <Empty testId="no-stuck-refunds">{t('nothing')}</Empty>
        ) : (
          <Table label={t('refundsTable')} head={[t('order'), t('refund'), t('refundAmount'), t('refundState'), t('requests'), t('lastError'), t('asked')]}>
            {refunds.map((item) => (
              <tr key={item.refundNo} data-testid={`refund-${item.refundNo}`} data-state={item.state}>
                <td className={cell}>
                  <OrderCell order={item.order} />
                </td>
                <td className={`${cell} font-mono text-xs`}>{item.merchantRefundNo}</td>
                <td className={cell}><Amount value={item.amount} currency={item.order.currency} /></td>
                <td className={cell}>{item.state === 'abnormal' ? t('refundStates.abnormal') : t('refundStates.processing')}</td>
                <td className={cell}>{item.requestCount}</td>
                <td className={`${cell} max-w-[16rem] text-xs break-words`}>{item.lastNote ? <ErrorInWords error={item.lastNote} /> : '—'}</td>
                <td className={`${cell} whitespace-nowrap`}><LocalTime value={item.createdAt} /></td>
              </tr>
            ))}
          </Table>
        )}
      </Section>
      <Section id="findings-heading" title={t('findings', { count: findings.length })}>
        {findings.length === 0 ? (
          <Empty testId="no-findings">{t('nothing')}</Empty>
        ) : (
          <Table label={t('findingsTable')} head={[tr('kind'), t('channel'), t('findingDay'), tr('reference'), tr('upstreamAmount'), tr('ourAmount'), t('actions')]}>
            {findings.map((item) => (
              <tr key={item.id} data-testid={`finding-${item.id}`}>
                <td className={cell}>
                  <Badge tone="bad">{tr(`kinds.${item.kind}`)}</Badge>
                </td>
                <td className={cell}>{item.channel}</td>
                <td className={`${cell} whitespace-nowrap`}>{item.day}</td>
                <td className={`${cell} font-mono text-xs break-all`}>{item.reference}</td>
                <td className={`${cell} font-mono`}>{item.upstreamAmount ? <Amount value={item.upstreamAmount} currency={item.currency} /> : '—'}</td>
                <td className={`${cell} font-mono`}>{item.oursAmount ? <Amount value={item.oursAmount} currency={item.currency} /> : '—'}</td>
                <td className={cell}>
                  <Link href={`/operator/reconciliation?day=${item.day}#run-${item.runId}`} className="text-teal-800 underline">
                    {t('findingLink', { day: item.day })}
                  </Link>
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Section>
      <SignInLockouts lockouts={signIns} unlockAction={unlockAccountAction} />
    </>
  );
}
