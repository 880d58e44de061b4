/**
 * The portal's look as Tailwind utility strings, shared by its pages and components so that a button or a card looks
 * the same everywhere. Tailwind's preflight is not loaded (app/globals.css), so controls set their font family and
 * margins themselves. Colours keep WCAG AA contrast on white and on the page's gray: text gray-600 or darker,
 * control borders gray-500 (3:1 for non-text), the accent teal-700.
 */

/** Visible keyboard focus for every interactive element. */
export const focusRing = 'focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-teal-700';

export const pageTitle = 'mt-2 mb-4 text-2xl font-bold leading-tight';
export const sectionTitle = 'mt-0 mb-3 text-lg font-semibold leading-snug';
export const subTitle = 'mt-4 mb-2 text-base font-semibold';
export const card = 'mb-4 rounded-xl border border-gray-200 bg-white p-4 sm:p-5';
export const note = 'm-0 text-sm text-gray-600';
export const mono = 'font-mono break-all';
export const link = `text-teal-800 underline underline-offset-2 hover:text-teal-950 ${focusRing}`;

const buttonBase = `inline-flex items-center justify-center gap-1 rounded-md border [font-family:inherit] leading-snug no-underline cursor-pointer disabled:cursor-progress disabled:opacity-60 ${focusRing}`;
const buttonKinds = {
  primary: 'border-teal-700 bg-teal-700 text-white hover:bg-teal-800',
  secondary: 'border-teal-700 bg-white text-teal-800 hover:bg-teal-50',
  danger: 'border-red-700 bg-red-700 text-white hover:bg-red-800',
} as const;

const buttonSizes = { md: 'px-4 py-2 text-base', sm: 'px-3 py-1 text-sm' } as const;

export function button(kind: keyof typeof buttonKinds = 'primary', size: keyof typeof buttonSizes = 'md'): string {
  return `${buttonBase} ${buttonSizes[size]} ${buttonKinds[kind]}`;
}

/** Inputs, selects and text areas. */
export const control = `w-full rounded-md border border-gray-500 bg-white px-2.5 py-2 [font-family:inherit] text-base text-gray-900 aria-[invalid=true]:border-red-700 aria-[invalid=true]:border-2 ${focusRing}`;
export const codeArea = `w-full rounded-md border border-gray-500 bg-white px-2.5 py-2 font-mono text-xs leading-snug text-gray-900 resize-y aria-[invalid=true]:border-red-700 aria-[invalid=true]:border-2 ${focusRing}`;
export const fieldWrap = 'mb-4 flex min-w-0 flex-col gap-1';
export const fieldLabel = 'text-sm font-semibold text-gray-900';
export const fieldError = 'm-0 text-sm text-red-700';
export const formError = 'mb-4 mt-0 rounded-md border border-red-200 bg-red-50 px-3 py-2.5 text-sm text-red-800';
export const formSuccess = 'mb-4 mt-0 rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2.5 text-sm text-emerald-800';
export const warning = 'text-sm text-amber-800';

export const tableWrap = 'overflow-x-auto rounded-lg border border-gray-200 bg-white';
export const table = 'w-full border-collapse text-sm';
export const th = 'border-b border-gray-200 px-3 py-2 text-left text-xs font-semibold whitespace-nowrap text-gray-600';
export const td = 'border-b border-gray-100 px-3 py-2 text-left align-top whitespace-nowrap';

/** A definition list: label above value on phones, label beside value from the small breakpoint. */
export const details = 'm-0 grid grid-cols-1 gap-x-5 gap-y-0.5 sm:grid-cols-[max-content_1fr] sm:gap-y-1.5';
export const detailsTerm = 'text-sm text-gray-600 mt-2 sm:mt-0';
export const detailsValue = 'm-0 [overflow-wrap:anywhere]';

export const codeBlock = 'm-0 mt-2 overflow-x-auto rounded-md bg-gray-50 p-3 font-mono text-xs leading-relaxed';

const badgeBase = 'inline-block rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap';
const BADGE_TONES: Record<string, string> = {
  paid: 'bg-emerald-100 text-emerald-800',
  delivered: 'bg-emerald-100 text-emerald-800',
  acknowledged: 'bg-emerald-100 text-emerald-800',
  approved: 'bg-emerald-100 text-emerald-800',
  pending: 'bg-amber-100 text-amber-900',
  in_flight: 'bg-amber-100 text-amber-900',
  closed: 'bg-red-100 text-red-800',
  failed: 'bg-red-100 text-red-800',
  rejected: 'bg-red-100 text-red-800',
  abandoned: 'bg-red-100 text-red-800',
  superseded: 'bg-red-100 text-red-800',
};

/** A status pill coloured by the status (order, notification, review). */
export function badge(status: string): string {
  return `${badgeBase} ${BADGE_TONES[status] ?? 'bg-gray-100 text-gray-800'}`;
}
