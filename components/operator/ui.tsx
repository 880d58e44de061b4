import Link from 'next/link';
import { useTranslations } from 'next-intl';
import { Children, cloneElement, isValidElement, type ReactElement, type ReactNode } from 'react';

/** Small building blocks of the operator console, styled with Tailwind utilities only. */

export function PageTitle({ title, intro }: { title: string; intro?: ReactNode }) {
  return (
    <header className="mb-4">
      <h1 className="m-0 text-2xl font-semibold">{title}</h1>
      {intro ? <p className="mt-1 mb-0 max-w-3xl text-sm text-gray-600">{intro}</p> : null}
    </header>
  );
}

export function Section({ title, id, children, actions }: { title: string; id: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section aria-labelledby={id} className="mb-5 rounded-xl border border-gray-200 bg-white p-4 sm:p-5">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <h2 id={id} className="m-0 text-lg font-semibold">
          {title}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

const BADGE_TONES = {
  good: 'bg-emerald-100 text-emerald-800',
  warn: 'bg-amber-100 text-amber-800',
  bad: 'bg-red-100 text-red-800',
  neutral: 'bg-gray-100 text-gray-700',
} as const;

export type Tone = keyof typeof BADGE_TONES;

/** `data` carries data-* attributes a test or a script reads (e.g. data-order-state). */
export function Badge({ tone, children, data }: { tone: Tone; children: ReactNode; data?: Record<`data-${string}`, string> }) {
  return (
    <span className={`inline-block rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ${BADGE_TONES[tone]}`} {...data}>
      {children}
    </span>
  );
}

/** Below the medium breakpoint rows become cards: the cells stack, each under its column's name (data-label). */
const STACKED =
  'max-md:block max-md:[&_tbody]:block max-md:[&_thead]:hidden max-md:[&_tbody>tr]:mb-3 max-md:[&_tbody>tr]:block max-md:[&_tbody>tr]:rounded-lg max-md:[&_tbody>tr]:border max-md:[&_tbody>tr]:border-gray-200 max-md:[&_tbody>tr]:p-2 max-md:[&_td]:flex max-md:[&_td]:gap-2 max-md:[&_td]:border-0 max-md:[&_td]:py-1 max-md:[&_td]:break-all max-md:[&_td]:whitespace-normal max-md:[&_td]:before:min-w-28 max-md:[&_td]:before:shrink-0 max-md:[&_td]:before:text-xs max-md:[&_td]:before:font-semibold max-md:[&_td]:before:break-normal max-md:[&_td]:before:text-gray-600 max-md:[&_td]:before:content-[attr(data-label)]';

type CellProps = { 'data-label'?: string; children?: ReactNode };

/** Each cell of each row learns its column's name, which the stacked layout shows beside it on phones. */
function labelled(children: ReactNode, head: string[]): ReactNode {
  return Children.map(children, (row) => {
    if (!isValidElement<{ children?: ReactNode }>(row)) return row;
    const cells = Children.toArray(row.props.children).map((cell, index) =>
      isValidElement<CellProps>(cell) && head[index] ? cloneElement(cell as ReactElement<CellProps>, { 'data-label': head[index] }) : cell,
    );
    return cloneElement(row, undefined, ...cells);
  });
}

/** A table that fits: wrapping cells on a desktop, a card per row on a phone. */
export function Table({ label, head, children }: { label: string; head: string[]; children: ReactNode }) {
  return (
    <div className="md:overflow-x-auto">
      <table className={`w-full border-collapse text-sm ${STACKED}`} aria-label={label}>
        <thead>
          <tr>
            {head.map((title) => (
              <th key={title} scope="col" className="border-b border-gray-200 px-2 py-2 text-left text-xs font-semibold whitespace-nowrap text-gray-500">
                {title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{labelled(children, head)}</tbody>
      </table>
    </div>
  );
}

export const cell = 'border-b border-gray-100 px-2 py-2 align-top';

export function Empty({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <p className="m-0 text-sm text-gray-500" data-testid={testId}>
      {children}
    </p>
  );
}

/** Keyset paging links (lib/db/keyset.ts): newest, the page above and the page below. */
export function Pager({ newer, older, paged, href }: { newer?: string; older?: string; paged: boolean; href: (cursor: { before?: string; after?: string }) => string }) {
  const t = useTranslations('common.pager');
  if (!paged && !older) return null;
  return (
    <nav aria-label={t('label')} className="mt-3 flex items-center gap-4 text-sm">
      {paged ? (
        <Link className="text-teal-700 underline" href={href({})}>
          {t('newest')}
        </Link>
      ) : null}
      {newer ? (
        <Link className="text-teal-700 underline" href={href({ after: newer })} rel="prev">
          {t('newer')}
        </Link>
      ) : null}
      {older ? (
        <Link className="text-teal-700 underline" href={href({ before: older })} rel="next">
          {t('older')}
        </Link>
      ) : null}
    </nav>
  );
}

export const buttonClass = {
  primary: 'inline-flex items-center justify-center rounded-md border border-teal-700 bg-teal-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-teal-800 disabled:cursor-progress disabled:opacity-60',
  secondary: 'inline-flex items-center justify-center rounded-md border border-teal-700 bg-white px-3 py-1.5 text-sm font-medium text-teal-800 hover:bg-teal-50 disabled:cursor-progress disabled:opacity-60',
  danger: 'inline-flex items-center justify-center rounded-md border border-red-700 bg-red-700 px-3 py-1.5 text-sm font-medium text-white hover:bg-red-800 disabled:cursor-progress disabled:opacity-60',
} as const;

export const inputClass = 'w-full rounded-md border border-gray-400 bg-white px-2.5 py-1.5 text-sm aria-[invalid=true]:border-red-700';

/** The units of a duration in the reader's language (common.duration: "{n} ms" in English, "{n} 毫秒" in Chinese). */
export type DurationUnits = (unit: 'ms' | 's' | 'min' | 'h', values: { n: number }) => string;

export function formatDuration(ms: number | null | undefined, units: DurationUnits): string {
  if (ms === null || ms === undefined) return '—';
  if (ms < 1000) return units('ms', { n: ms });
  const seconds = Math.round(ms / 1000);
  if (seconds < 120) return units('s', { n: seconds });
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return units('min', { n: minutes });
  return units('h', { n: Math.round(minutes / 60) });
}
