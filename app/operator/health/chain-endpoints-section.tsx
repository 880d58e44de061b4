import { Badge, cell, formatTime, Section, Table, type Tone } from '@/components/operator/ui';
import { getDb } from '@/lib/db/client';
import { chainEndpointHealth, type EndpointStatus } from '@/lib/operator/chain-endpoint-health';

const TONES: Record<EndpointStatus, Tone> = { ok: 'good', blocked: 'warn', failing: 'bad', unused: 'neutral' };
const WORDS: Record<EndpointStatus, string> = { ok: 'ok · 正常', blocked: 'blocked · 被限流', failing: 'failing · 故障', unused: 'not used yet · 未使用' };

/** The TronGrid endpoints the chain watcher fails over between (TRONGRID_BASE_URLS) and how each last answered. */
export async function ChainEndpointsSection({ now }: { now: Date }) {
  const endpoints = await chainEndpointHealth(getDb(), now);
  return (
    <Section id="chain-endpoints-heading" title="TronGrid endpoints · 链上节点">
      <Table label="TronGrid endpoints · 链上节点" head={['Endpoint · 节点', 'Status · 状态', 'Blocked until · 限流至', 'Failing since · 故障起始', 'Last ok · 最近正常', 'Last error · 最近错误']}>
        {endpoints.map((endpoint, index) => (
          <tr key={endpoint.label + index} data-testid="chain-endpoint">
            <td className={`${cell} font-mono text-xs break-all`}>{endpoint.label}</td>
            <td className={cell} data-testid="chain-endpoint-status">
              <Badge tone={TONES[endpoint.status]}>{WORDS[endpoint.status]}</Badge>
            </td>
            <td className={`${cell} whitespace-nowrap`}>{formatTime(endpoint.blockedUntil)}</td>
            <td className={`${cell} whitespace-nowrap`}>{formatTime(endpoint.failingSince)}</td>
            <td className={`${cell} whitespace-nowrap`}>{formatTime(endpoint.lastOkAt)}</td>
            <td className={`${cell} max-w-[20rem] text-xs break-words`}>{endpoint.lastError ? `${formatTime(endpoint.lastErrorAt)}: ${endpoint.lastError}` : '—'}</td>
          </tr>
        ))}
      </Table>
    </Section>
  );
}
