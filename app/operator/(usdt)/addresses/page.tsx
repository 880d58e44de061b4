import { addAddressAction, setAddressEnabledAction, setUsdtLimitAction } from './actions';
import { getLocale, getTranslations } from 'next-intl/server';
import { networkName } from '@/lib/channels/usdt/checkout-network';
import { USDT_CHAINS } from '@/lib/channels/usdt/usdt-chains';
import { AddAddressForm, AddressToggle, UsdtLimitForm } from './address-forms';
import { Badge, cell, Empty, PageTitle, Section, Table } from '@/components/operator/ui';
import { getDb } from '@/lib/db/client';
import { formatMinorUnits } from '@/lib/money/decimal-amount';
import { listAddressHoldings } from '@/lib/channels/usdt/operator/address-holdings';
import { getUsdtMaxPerOrderMinor } from '@/lib/channels/usdt/max-per-order';
import { requireOperator } from '../../_session/require-operator';
import { LocalTime } from '@/components/i18n/local-time';

export const dynamic = 'force-dynamic';

export default async function AddressesPage() {
  await requireOperator();
  const [addresses, limit, t, locale] = await Promise.all([listAddressHoldings(getDb()), getUsdtMaxPerOrderMinor(getDb()), getTranslations('console.addresses'), getLocale()]);
  const chains = USDT_CHAINS.map((chain) => ({ value: chain.name, label: networkName(chain, locale === 'zh-CN' ? 'zh' : 'en') }));
  return (
    <>
      <PageTitle
        title={t('title')}
        intro={t('intro')}
      />
      <Section id="addresses-heading" title={t('count', { count: addresses.length })}>
        {addresses.length === 0 ? (
          <Empty testId="no-addresses">{t('none')}</Empty>
        ) : (
          <Table label={t('table')} head={['ID', t('address'), t('state'), t('pendingOrders'), t('held'), t('added'), t('actions')]}>
            {addresses.map((row) => (
              <tr key={row.id} data-testid={`address-${row.address}`}>
                <td className={`${cell} font-mono`}>{row.id}</td>
                <td className={`${cell} font-mono text-xs break-all`}>
                  {row.address}
                  <span className="block text-gray-500">{row.chain}</span>
                </td>
                <td className={cell} data-testid="address-state">
                  <Badge tone={row.enabled ? 'good' : 'neutral'}>{row.enabled ? t('enabled') : t('disabled')}</Badge>
                </td>
                <td className={cell} data-testid="address-pending">
                  {row.pendingOrders}
                  {row.coolingDown > 0 ? <span className="block text-xs text-gray-600" data-testid="address-cooling">{t('coolingDown', { count: row.coolingDown })}</span> : null}
                </td>
                <td className={`${cell} font-mono text-xs`} data-testid="address-held">
                  {row.heldAmounts.length === 0 ? '—' : row.heldAmounts.join(', ')}
                </td>
                <td className={`${cell} whitespace-nowrap`}><LocalTime value={row.createdAt} /></td>
                <td className={cell}>
                  <AddressToggle id={row.id} address={row.address} enabled={row.enabled} setAddressEnabledAction={setAddressEnabledAction} />
                </td>
              </tr>
            ))}
          </Table>
        )}
      </Section>
      <div className="grid gap-5 lg:grid-cols-2">
        <Section id="add-address-heading" title={t('add')}>
          <AddAddressForm chains={chains} addAddressAction={addAddressAction} />
        </Section>
        <Section id="limit-heading" title={t('limit')}>
          <p className="m-0 mb-3 text-sm" data-testid="usdt-limit">
            {t('current')} <strong>{formatMinorUnits(limit)} USDT</strong>
          </p>
          <UsdtLimitForm current={formatMinorUnits(limit)} setUsdtLimitAction={setUsdtLimitAction} />
        </Section>
      </div>
    </>
  );
}
