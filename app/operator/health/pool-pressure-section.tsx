import { getTranslations } from 'next-intl/server';
import { Badge, cell, Empty, Section, Table } from '@/components/operator/ui';
import type { PoolPressure } from '@/lib/channels/pool-pressure';

/**
 * The shared receiving pools' pressure: per network who may place orders and the share each may hold by default, and
 * per amount band the slots held, the free slots at the busiest amount and the amounts where a merchant is at its share.
 */
export async function PoolPressureSection({ pools }: { pools: PoolPressure[] }) {
  const t = await getTranslations('console.health');
  return (
    <Section id="pools-heading" title={t('pools')}>
      <p className="mt-0 text-sm text-gray-600">{t.rich('poolsIntro', { code: (chunks) => <code>{chunks}</code> })}</p>
      <ul className="mt-0 text-sm">
        {pools.map((pool) => (
          <li key={pool.chain} data-testid={`pool-share-${pool.chain}`}>
            {pool.defaultShare
              ? t('poolShareShared', { chain: pool.chain, merchants: pool.merchants, slots: 2 * pool.addresses, ...pool.defaultShare })
              : t('poolShareAlone', { chain: pool.chain, merchants: pool.merchants })}
          </li>
        ))}
      </ul>
      {pools.length === 0 ? (
        <Empty testId="pools-empty">{t('poolNone')}</Empty>
      ) : (
        <Table label={t('pools')} head={[t('poolNetwork'), t('poolAddresses'), t('poolBand'), t('poolHeldSlots'), t('poolHeldAmounts'), t('poolFullAmounts'), t('poolFewestFree'), t('poolAtShare')]}>
          {pools.flatMap((pool) =>
            pool.bands.map((band) => (
              <tr key={`${pool.chain} ${band.band}`} data-testid={`pool-${pool.chain}-${band.band}`}>
                <td className={`${cell} font-mono text-xs`}>{pool.chain}</td>
                <td className={cell}>{pool.addresses}</td>
                <td className={`${cell} whitespace-nowrap`}>{band.band}</td>
                <td className={cell}>{band.heldSlots}</td>
                <td className={cell}>{band.heldAmounts}</td>
                <td className={cell}>{band.fullAmounts > 0 ? <Badge tone="bad">{band.fullAmounts}</Badge> : '0'}</td>
                <td className={cell} data-testid="pool-fewest-free">
                  <Badge tone={band.fewestFreeSlots === 0 ? 'bad' : band.fewestFreeSlots * 4 <= pool.addresses ? 'warn' : 'good'}>{band.fewestFreeSlots}</Badge>
                  {band.busiestAmount ? <span className="ml-1 text-xs text-gray-600">({band.busiestAmount})</span> : null}
                </td>
                <td className={cell} data-testid="pool-at-share">
                  {band.amountsAtShare > 0 ? <Badge tone="warn">{band.amountsAtShare}</Badge> : '0'}
                </td>
              </tr>
            )),
          )}
        </Table>
      )}
    </Section>
  );
}
