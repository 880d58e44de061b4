import Link from 'next/link';
import type { ReactNode } from 'react';

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

export function Badge({ tone, children }: { tone: Tone; children: ReactNode }) {
  return <span className={`inline-block rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ${BADGE_TONES[tone]}`}>{children}</span>;
}

/** A table that scrolls sideways on a phone instead of squeezing its columns. */
export function Table({ label, head, children }: { label: string; head: string[]; children: ReactNode }) {
  return (
    <div className="-mx-4 overflow-x-auto px-4 sm:mx-0 sm:px-0">
      <table className="w-full border-collapse text-sm" aria-label={label}>
        <thead>
          <tr>
            {head.map((title) => (
              <th key={title} scope="col" className="border-b border-gray-200 px-2 py-2 text-left text-xs font-semibold whitespace-nowrap text-gray-500">
                {title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
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
  if (!paged && !older) return null;
  return (
    <nav aria-label="Pages · 分页" className="mt-3 flex items-center gap-4 text-sm">
      {paged ? (
        <Link className="text-teal-700 underline" href={href({})}>
          Newest · 最新
        </Link>
      ) : null}
      {newer ? (
        <Link className="text-teal-700 underline" href={href({ after: newer })} rel="prev">
          ← Newer · 上一页
        </Link>
      ) : null}
      {older ? (
        <Link className="text-teal-700 underline" href={href({ before: older })} rel="next">
          Older · 下一页 →
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

/** Times in the console are shown in UTC, to the second, with the zone named (as in the portal). */
export function formatTime(date: Date | null | undefined): string {
  if (!date) return '—';
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '—';
  if (ms < 1000) return `${ms} ms`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return `${minutes} min`;
  return `${Math.round(minutes / 60)} h`;
}
