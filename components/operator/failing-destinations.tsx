import type { FailingDestination } from '@/lib/notifications/failing-destinations';
import { Badge, cell, Empty, formatDuration, formatTime, Section, Table } from './ui';

const CIRCUIT_LABELS = {
  open: 'open · 熔断',
  probing: 'probing · 探测中',
  closed: 'closed · 未熔断',
} as const;

/** The health page's list of notification destinations failing now: their circuit, since when, what waits for them. */
export function FailingDestinations({ destinations, now }: { destinations: FailingDestination[]; now: Date }) {
  return (
    <Section id="destinations-heading" title="Failing notification destinations · 通知地址故障">
      <p className="mt-0 mb-3 text-sm text-gray-600">
        Hosts of merchants’ notifyUrl that did not answer their last attempts (timeout, refused, unreachable). After 5 such failures in a row the
        circuit opens: their notifications wait without using retries, one probe decides when it may close; other merchants are not delayed. /
        连续 5 次无响应后熔断：通知暂缓且不消耗重试次数，由一次探测决定恢复。
      </p>
      {destinations.length === 0 ? (
        <Empty testId="destinations-none">No destination is failing now. · 当前没有故障的通知地址。</Empty>
      ) : (
        <Table
          label="Failing notification destinations · 通知地址故障"
          head={['Destination · 地址', 'Circuit · 熔断', 'Failures in a row · 连续失败', 'Failing since · 开始时间', 'Last error · 最近错误', 'Waiting · 待发送', 'Merchants · 商户']}
        >
          {destinations.map((destination) => (
            <tr key={destination.destination} data-testid={`destination-${destination.destination}`}>
              <td className={`${cell} font-mono text-xs`}>{destination.destination}</td>
              <td className={cell} data-testid="destination-circuit">
                <Badge tone={destination.circuit === 'closed' ? 'warn' : 'bad'}>{CIRCUIT_LABELS[destination.circuit]}</Badge>
                {destination.circuit === 'open' && destination.openUntil ? (
                  <div className="text-xs text-gray-500">
                    {destination.openUntil > now ? `probe in ${formatDuration(destination.openUntil.getTime() - now.getTime())}` : 'probe due'}
                  </div>
                ) : null}
              </td>
              <td className={cell} data-testid="destination-failures">
                {destination.consecutiveFailures}
              </td>
              <td className={`${cell} whitespace-nowrap`} data-testid="destination-since">
                {formatTime(destination.failingSince)}
                {destination.failingSince ? <div className="text-xs text-gray-500">{formatDuration(now.getTime() - destination.failingSince.getTime())} ago</div> : null}
              </td>
              <td className={`${cell} max-w-[20rem] text-xs break-words`}>{destination.lastError ?? '—'}</td>
              <td className={cell}>{destination.pending}</td>
              <td className={`${cell} text-xs`}>{destination.merchants.join(', ') || '—'}</td>
            </tr>
          ))}
        </Table>
      )}
    </Section>
  );
}
