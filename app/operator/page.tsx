import Link from 'next/link';
import { PageTitle } from '@/components/operator/ui';
import { getDb } from '@/lib/db/client';
import { operatorOverview } from '@/lib/operator/overview';
import { requireOperator } from './_session/require-operator';

export const dynamic = 'force-dynamic';

function Tile({ href, title, value, note, urgent }: { href: string; title: string; value: number | string; note: string; urgent?: boolean }) {
  return (
    <li>
      <Link
        href={href}
        className={`block h-full rounded-xl border bg-white p-4 no-underline hover:shadow-sm focus-visible:outline-3 focus-visible:outline-teal-700 ${urgent ? 'border-amber-400' : 'border-gray-200'}`}
      >
        <span className="block text-sm font-semibold text-gray-900">{title}</span>
        <span className="mt-1 block text-3xl font-bold text-gray-900">{value}</span>
        <span className="mt-1 block text-xs text-gray-500">{note}</span>
      </Link>
    </li>
  );
}

export default async function OperatorIndexPage() {
  await requireOperator();
  const overview = await operatorOverview(getDb());
  const attention = overview.attention.transfers + overview.attention.callbacks + overview.attention.notifications;
  return (
    <>
      <PageTitle title="Overview · 概览" intro="What waits for an operator, by section. / 各模块待处理事项。" />
      <ul className="m-0 grid list-none grid-cols-1 gap-3 p-0 sm:grid-cols-2 lg:grid-cols-3" data-testid="overview">
        <Tile href="/operator/credentials" title="Credentials to review · 待审核凭证" value={overview.pendingCredentials} note="ALIPAY / WECHAT, pending review · 待审核" urgent={overview.pendingCredentials > 0} />
        <Tile
          href="/operator/attention"
          title="Payments needing attention · 待处理支付"
          value={attention}
          note={`${overview.attention.transfers} transfers · ${overview.attention.callbacks} callbacks · ${overview.attention.notifications} notifications / 转账、回调、通知`}
          urgent={attention > 0}
        />
        <Tile href="/operator/merchants" title="Merchants · 商户" value={overview.merchants} note="Search, order permission, details · 搜索、下单权限、详情" />
        <Tile href="/operator/addresses" title="USDT receiving addresses · 收款地址" value={overview.enabledAddresses} note="Enabled; per-order limit · 已启用；单笔限额" />
        <Tile href="/operator/audit" title="Audit log · 审计日志" value="→" note="Every operator action · 所有运营操作" />
        <Tile href="/operator/health" title="Health · 运行状态" value="→" note="Chain watcher, notification queue, jobs · 链上监听、通知队列、定时任务" />
      </ul>
    </>
  );
}
