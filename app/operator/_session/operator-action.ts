import { getLocale } from 'next-intl/server';
import { runOperatorAction, type OperatorActionResult } from '@/lib/callers/operator-action';
import { formWords } from '@/lib/i18n/form-words';
import { isLocale } from '@/lib/i18n/locales';
import type { OperatorContext } from '@/lib/operator/operator-context';
import { requireOperator } from './require-operator';

export type { OperatorActionResult };

/**
 * Every operator server action runs through here: the session check, then lib/callers/operator-action.ts. Only the
 * account page's own actions run `duringSecondFactorSetUp` (requireOperator).
 */
export function operatorAction<T>(work: (operator: OperatorContext) => Promise<T>, options: { field?: string; duringSecondFactorSetUp?: boolean } = {}): Promise<OperatorActionResult<T>> {
  const { duringSecondFactorSetUp = false, ...rest } = options;
  return runOperatorAction(() => requireOperator({ duringSecondFactorSetUp }), work, { ...rest, words: operatorWords });
}

/** Values from the browser are taken as text (or an id), never trusted for their type. */
export const asText = (value: unknown): string => (typeof value === 'string' ? value : '');
export const asId = (value: unknown): number => {
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(number) && number > 0 ? number : 0;
};

async function operatorWords() {
  const locale = await getLocale();
  return formWords(isLocale(locale) ? locale : 'en');
}
