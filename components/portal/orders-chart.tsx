import { useTranslations } from 'next-intl';
import type { DailyOrderCount } from '@/lib/portal/daily-order-series';
import { note } from './styles';

const WIDTH = 560;
const HEIGHT = 200;
const PLOT = { left: 32, right: 8, top: 12, bottom: 28 };
const CREATED_COLOUR = '#64748b'; // slate-500: 4.8:1 on white
const PAID_COLOUR = '#0f766e'; // teal-700: 5.5:1 on white

/** The smallest "round" number (1, 2, 5 × 10ⁿ) at or above the largest count, so the top grid line reads well. */
function chartScaleMax(largest: number): number {
  if (largest <= 1) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(largest));
  for (const step of [1, 2, 5, 10]) if (step * magnitude >= largest) return step * magnitude;
  return 10 * magnitude;
}

const shortDay = (day: string) => day.slice(5); // MM-DD

/**
 * Orders created and paid per calendar day in the pages' time zone, as grouped bars drawn on the server (inline SVG, no script). The drawing is
 * hidden from assistive technology; the same figures are in a visually hidden table, and the figure's caption names
 * the totals.
 */
export function OrdersChart({ days, timeZone }: { days: DailyOrderCount[]; timeZone: string }) {
  const t = useTranslations('portal.chart');
  const top = chartScaleMax(Math.max(0, ...days.map((day) => Math.max(day.created, day.paid))));
  const plotWidth = WIDTH - PLOT.left - PLOT.right;
  const plotHeight = HEIGHT - PLOT.top - PLOT.bottom;
  const slot = plotWidth / Math.max(1, days.length);
  const barWidth = Math.min(22, slot * 0.32);
  const y = (value: number) => PLOT.top + plotHeight - (value / top) * plotHeight;
  const created = days.reduce((sum, day) => sum + day.created, 0);
  const paid = days.reduce((sum, day) => sum + day.paid, 0);
  const range = days.length > 0 ? `${days[0]!.day} – ${days.at(-1)!.day}` : '';
  return (
    <figure className="m-0" aria-labelledby="orders-chart-caption" data-testid="orders-chart">
      <figcaption id="orders-chart-caption" className={`${note} mb-2`}>
        {t('summary', { zone: timeZone, range, created, paid })}
      </figcaption>
      <div className="mb-2 flex flex-wrap gap-x-4 gap-y-1 text-sm text-gray-700" aria-hidden="true">
        <span className="inline-flex items-center gap-1.5">
          <span className="inline-block size-3 rounded-sm" style={{ background: CREATED_COLOUR }} /> {t('created')}
        </span>
        <span className="inline-flex items-center gap-1.5">
          <span className="inline-block size-3 rounded-sm" style={{ background: PAID_COLOUR }} /> {t('paid')}
        </span>
      </div>
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} className="block h-auto w-full max-w-xl" aria-hidden="true" focusable="false" data-testid="orders-chart-svg">
        {[0, top / 2, top].map((value) => (
          <g key={value}>
            <line x1={PLOT.left} x2={WIDTH - PLOT.right} y1={y(value)} y2={y(value)} stroke="#e5e7eb" strokeWidth={1} />
            {Number.isInteger(value) ? (
              <text x={PLOT.left - 6} y={y(value) + 4} textAnchor="end" fontSize={11} fill="#4b5563">
                {value}
              </text>
            ) : null}
          </g>
        ))}
        {days.map((day, index) => {
          const centre = PLOT.left + slot * index + slot / 2;
          return (
            <g key={day.day} data-day={day.day}>
              <rect x={centre - barWidth - 1} y={y(day.created)} width={barWidth} height={y(0) - y(day.created)} fill={CREATED_COLOUR} rx={2}>
                <title>{`${day.day}: ${t('created')} ${day.created}`}</title>
              </rect>
              <rect x={centre + 1} y={y(day.paid)} width={barWidth} height={y(0) - y(day.paid)} fill={PAID_COLOUR} rx={2}>
                <title>{`${day.day}: ${t('paid')} ${day.paid}`}</title>
              </rect>
              <text x={centre} y={HEIGHT - 8} textAnchor="middle" fontSize={11} fill="#4b5563">
                {shortDay(day.day)}
              </text>
            </g>
          );
        })}
        <line x1={PLOT.left} x2={WIDTH - PLOT.right} y1={y(0)} y2={y(0)} stroke="#6b7280" strokeWidth={1} />
      </svg>
      <table className="sr-only" data-testid="orders-chart-table">
        <caption>{t('caption', { zone: timeZone })}</caption>
        <thead>
          <tr>
            <th scope="col">{t('day')}</th>
            <th scope="col">{t('created')}</th>
            <th scope="col">{t('paid')}</th>
          </tr>
        </thead>
        <tbody>
          {days.map((day) => (
            <tr key={day.day}>
              <th scope="row">{day.day}</th>
              <td>{day.created}</td>
              <td>{day.paid}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
