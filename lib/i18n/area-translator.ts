import { createTranslator, type AbstractIntlMessages } from 'use-intl/core';
import type { Locale } from './locales';
import { loadMessages, type MessageArea } from './messages';

export type AreaTranslator = (key: string, values?: Record<string, string | number>) => string;

/**
 * One area's catalogue in one language, for text made outside a page (a route handler's redirect that carries a
 * message): the same messages the pages show, keys relative to the area.
 */
export async function areaTranslator(locale: Locale, area: MessageArea): Promise<AreaTranslator> {
  const messages = (await loadMessages(locale, [area])) as AbstractIntlMessages;
  const translate = createTranslator({ locale, messages, namespace: area as never }) as unknown as AreaTranslator;
  return (key, values) => translate(key, values);
}
