import { getTranslations } from 'next-intl/server';
import { Badge, cell, Empty, Section, Table } from '@/components/operator/ui';
import type { PoolPressure } from '@/lib/channels/pool-pressure';

/** The shared receiving pools' pressure: per network and amount band, slots held and free slots at the busiest amount. */
export async function PoolPressureSection({ pools }: { pools: PoolPressure[] }) {
  const t = await getTranslations('console.health');
  return (
    <Section id="pools-heading" title={t('pools')}>
      <p className="mt-0 text-sm text-gray-600">{t.rich('poolsIntro', { code: (chunks) => <code>{chunks}</code> })}</p>
      {pools.length === 0 ? (
        <Empty testId="pools-empty">{t('poolNone')}</Empty>
      ) : (
        <Table label={t('pools')} head={[t('poolNetwork'), t('poolAddresses'), t('poolBand'), t('poolHeldSlots'), t('poolHeldAmounts'), t('poolFullAmounts'), t('poolFewestFree')]}>
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
              </tr>
            )),
          )}
        </Table>
      )}
    </Section>
  );
}
