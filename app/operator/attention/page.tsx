import Link from 'next/link';
import { AttentionItemActions } from '@/components/operator/attention-actions';
import { Badge, cell, Empty, formatTime, PageTitle, Section, Table, type Tone } from '@/components/operator/ui';
import { getDb } from '@/lib/db/client';
import { listAttention, type LinkedOrder, type TransferItem } from '@/lib/operator/attention';
import { requireOperator } from '../_session/require-operator';

export const dynamic = 'force-dynamic';

const PROBLEMS: Record<TransferItem['problem'], { label: string; tone: Tone }> = {
  unmatched: { label: 'Unmatched · 无对应订单', tone: 'bad' },
  short: { label: 'Short · 少付', tone: 'warn' },
  over: { label: 'Over · 多付', tone: 'warn' },
  late: { label: 'Late · 超时到账', tone: 'warn' },
  wrong_amount: { label: 'Wrong amount · 金额不符', tone: 'warn' },
};

function OrderCell({ order }: { order: LinkedOrder | null }) {
  if (!order) return <span className="text-gray-500">—</span>;
  return (
    <span className="flex flex-col">
      <Link href={`/operator/merchants/${order.appId}`} className="font-mono text-xs text-teal-800 underline">
        {order.orderNo}
      </Link>
      <span className="font-mono text-xs text-gray-500">{order.merchantOrderNo}</span>
      <span className="text-xs">
        {order.payAmount} · {order.status}
      </span>
    </span>
  );
}

const canComplete = (order: LinkedOrder | null) => order !== null && order.status !== 'paid';

export default async function AttentionPage() {
  await requireOperator();
  const { transfers, callbacks, notifications } = await listAttention(getDb());
  return (
    <>
      <PageTitle
        title="Payments needing attention · 待处理支付"
        intro="USDT transfers that paid nothing, upstream callbacks that failed verification or did not match, and notifications that failed every attempt. Complete an order by hand (with a reason), resend, or dismiss with a note; every action is in the audit log. / 未入账的 USDT 转账、验证失败或不匹配的上游回调、所有重试均失败的通知。"
      />
      <Section id="transfers-heading" title={`USDT transfers · USDT 转账 (${transfers.length})`}>
        {transfers.length === 0 ? (
          <Empty testId="no-transfers">Nothing to look at. · 暂无。</Empty>
        ) : (
          <Table label="USDT transfers needing attention · 待处理转账" head={['Problem · 问题', 'Amount (USDT) · 金额', 'To · 收款地址', 'From · 付款地址', 'Transaction · 交易', 'Block time · 区块时间', 'Order · 订单', 'Actions · 操作']}>
            {transfers.map((item) => (
              <tr key={item.id} data-testid={`transfer-${item.id}`}>
                <td className={cell}>
                  <Badge tone={PROBLEMS[item.problem].tone}>{PROBLEMS[item.problem].label}</Badge>
                </td>
                <td className={`${cell} font-mono`}>{item.amount}</td>
                <td className={`${cell} font-mono text-xs break-all`}>{item.toAddress}</td>
                <td className={`${cell} font-mono text-xs break-all`}>{item.fromAddress}</td>
                <td className={`${cell} max-w-[12rem] font-mono text-xs break-all`}>{item.transactionId}</td>
                <td className={`${cell} whitespace-nowrap`}>{formatTime(item.blockTime)}</td>
                <td className={cell}>
                  <OrderCell order={item.order} />
                </td>
                <td className={cell}>
                  <AttentionItemActions kind="transfer" itemId={item.id} label={`transfer ${item.id}`} canComplete={canComplete(item.order)} orderNo={item.order?.orderNo} />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Section>
      <Section id="callbacks-heading" title={`Upstream callbacks · 上游回调 (${callbacks.length})`}>
        {callbacks.length === 0 ? (
          <Empty testId="no-callbacks">Nothing to look at. · 暂无。</Empty>
        ) : (
          <Table label="Upstream callbacks needing attention · 待处理回调" head={['Verdict · 结论', 'Channel · 渠道', 'Received · 接收时间', 'Out trade no · 商户单号', 'Detail · 详情', 'Order · 订单', 'Actions · 操作']}>
            {callbacks.map((item) => (
              <tr key={item.id} data-testid={`callback-${item.id}`}>
                <td className={cell}>
                  <Badge tone="bad">{item.verdict}</Badge>
                </td>
                <td className={cell}>
                  {item.channel} <span className="text-xs text-gray-500">{item.kind}</span>
                </td>
                <td className={`${cell} whitespace-nowrap`}>{formatTime(item.receivedAt)}</td>
                <td className={`${cell} font-mono text-xs`}>{item.outTradeNo ?? '—'}</td>
                <td className={`${cell} max-w-[16rem] text-xs break-words`}>{item.detail ?? '—'}</td>
                <td className={cell}>
                  <OrderCell order={item.order} />
                </td>
                <td className={cell}>
                  <AttentionItemActions kind="callback" itemId={item.id} label={`callback ${item.id}`} canComplete={canComplete(item.order)} orderNo={item.order?.orderNo} />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Section>
      <Section id="notifications-heading" title={`Failed notifications · 通知失败 (${notifications.length})`}>
        {notifications.length === 0 ? (
          <Empty testId="no-notifications">Nothing to look at. · 暂无。</Empty>
        ) : (
          <Table label="Notifications that failed every attempt · 全部重试失败的通知" head={['Order · 订单', 'Notify URL · 通知地址', 'Cycle · 轮次', 'Attempts · 次数', 'Last error · 最后错误', 'Failed · 失败时间', 'Actions · 操作']}>
            {notifications.map((item) => (
              <tr key={item.id} data-testid={`notification-${item.id}`}>
                <td className={cell}>
                  <OrderCell order={item.order} />
                </td>
                <td className={`${cell} max-w-[14rem] font-mono text-xs break-all`}>{item.notifyUrl ?? '—'}</td>
                <td className={cell}>{item.cycle}</td>
                <td className={cell}>{item.attempts}</td>
                <td className={`${cell} max-w-[16rem] text-xs break-words`}>{item.lastError ?? '—'}</td>
                <td className={`${cell} whitespace-nowrap`}>{formatTime(item.failedAt)}</td>
                <td className={cell}>
                  <AttentionItemActions kind="notification" itemId={item.id} label={`notification of order ${item.order.orderNo}`} canComplete={false} />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Section>
    </>
  );
}
