import type { FailingDestination } from '@/lib/notifications/failing-destinations';
import { formatTime } from './format';
import { mono } from './styles';

const notice = 'mb-4 mt-0 rounded-md border border-amber-300 bg-amber-50 px-3 py-2.5 text-sm text-amber-900';

function state(destination: FailingDestination): string {
  if (destination.circuit === 'probing') return 'one notification is being tried now · 正在探测';
  if (destination.circuit === 'open' && destination.openUntil) return `paused until ${formatTime(destination.openUntil)}, then one is tried · 暂停至该时间后探测`;
  return 'still being tried · 仍在重试';
}

/**
 * Tells a merchant that a host of its notifyUrl is not answering now, before the retries run out: how long, how
 * often, and that its notifications wait for it without using their retries.
 */
export function FailingDestinationsNotice({ destinations }: { destinations: FailingDestination[] }) {
  if (destinations.length === 0) return null;
  return (
    <div className={notice} role="status" data-testid="failing-destinations">
      <p className="m-0 font-semibold">Your notification endpoint is not answering · 您的通知地址无响应</p>
      <ul className="m-0 mt-1 list-disc pl-5">
        {destinations.map((destination) => (
          <li key={destination.destination} data-testid={`failing-${destination.destination}`}>
            <span className={mono}>{destination.destination}</span>: {destination.consecutiveFailures} attempts in a row unanswered since{' '}
            {formatTime(destination.failingSince)} ({destination.lastError ?? 'no answer'}); {state(destination)}. {destination.pending} notification(s)
            waiting. / 连续 {destination.consecutiveFailures} 次无响应。
          </li>
        ))}
      </ul>
      <p className="m-0 mt-1">
        Waiting notifications keep their retries and are sent as soon as the endpoint answers again. / 等待中的通知不消耗重试次数，地址恢复后立即发送。
      </p>
    </div>
  );
}
