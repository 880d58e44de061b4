import type { Locale } from './locales';

/**
 * An amount as a reader of `locale` reads it, from its written decimal ("12345.60", never a float): the whole part
 * grouped by thousands, and one currency style per language: Chinese writes yuan with ¥ before the figure, English
 * writes the currency's code after it; USDT is written by its name in both.
 */
export function readableAmount(amount: string, currency: string, locale: Locale): string {
  const negative = amount.startsWith('-');
  const [whole = '0', fraction] = (negative ? amount.slice(1) : amount).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const figure = `${negative ? '-' : ''}${grouped}${fraction === undefined ? '' : `.${fraction}`}`;
  if (currency === 'CNY' && locale === 'zh-CN') return `¥${figure}`;
  return `${figure} ${currency}`;
}
