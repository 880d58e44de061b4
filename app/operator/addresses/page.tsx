import { AddAddressForm, AddressToggle, UsdtLimitForm } from '@/components/operator/address-forms';
import { Badge, cell, Empty, formatTime, PageTitle, Section, Table } from '@/components/operator/ui';
import { getDb } from '@/lib/db/client';
import { formatMinorUnits } from '@/lib/money/decimal-amount';
import { listAddressHoldings } from '@/lib/operator/addresses';
import { getUsdtMaxPerOrderMinor } from '@/lib/settings/platform-settings';
import { requireOperator } from '../_session/require-operator';

export const dynamic = 'force-dynamic';

export default async function AddressesPage() {
  await requireOperator();
  const [addresses, limit] = await Promise.all([listAddressHoldings(getDb()), getUsdtMaxPerOrderMinor(getDb())]);
  return (
    <>
      <PageTitle
        title="USDT receiving addresses · USDT 收款地址"
        intro="New USDT orders are spread over the enabled addresses; on each address an amount is held by one pending order at a time (the next order gets +0.01). A disabled address takes no new orders; its pending orders keep it and its transfers are still read. / 新订单分配到已启用的地址；同一地址上同一金额同时只被一个待支付订单占用（下一个订单 +0.01）。停用的地址不再接新单。"
      />
      <Section id="addresses-heading" title={`Addresses · 地址 (${addresses.length})`}>
        {addresses.length === 0 ? (
          <Empty testId="no-addresses">No receiving address yet: USDT orders are refused with 1010. · 暂无收款地址。</Empty>
        ) : (
          <Table label="Receiving addresses · 收款地址" head={['ID', 'Address · 地址', 'State · 状态', 'Pending orders · 待支付订单', 'Held amounts (USDT) · 占用金额', 'Added · 添加', 'Actions · 操作']}>
            {addresses.map((row) => (
              <tr key={row.id} data-testid={`address-${row.address}`}>
                <td className={`${cell} font-mono`}>{row.id}</td>
                <td className={`${cell} font-mono text-xs break-all`}>
                  {row.address}
                  <span className="block text-gray-500">{row.chain}</span>
                </td>
                <td className={cell} data-testid="address-state">
                  <Badge tone={row.enabled ? 'good' : 'neutral'}>{row.enabled ? 'Enabled · 已启用' : 'Disabled · 已停用'}</Badge>
                </td>
                <td className={cell} data-testid="address-pending">
                  {row.pendingOrders}
                </td>
                <td className={`${cell} font-mono text-xs`} data-testid="address-held">
                  {row.heldAmounts.length === 0 ? '—' : row.heldAmounts.join(', ')}
                </td>
                <td className={`${cell} whitespace-nowrap`}>{formatTime(row.createdAt)}</td>
                <td className={cell}>
                  <AddressToggle id={row.id} address={row.address} enabled={row.enabled} />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Section>
      <div className="grid gap-5 lg:grid-cols-2">
        <Section id="add-address-heading" title="Add an address · 添加地址">
          <AddAddressForm />
        </Section>
        <Section id="limit-heading" title="Per-order USDT limit · USDT 单笔限额">
          <p className="m-0 mb-3 text-sm" data-testid="usdt-limit">
            Current · 当前: <strong>{formatMinorUnits(limit)} USDT</strong>
          </p>
          <UsdtLimitForm current={formatMinorUnits(limit)} />
        </Section>
      </div>
    </>
  );
}
