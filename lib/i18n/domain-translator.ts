import { createTranslator, type AbstractIntlMessages } from 'use-intl/core';
import englishDomainCatalogue from '../../messages/en/domain.json';
import type { DomainMessage, DomainMessageValue } from '../errors/domain-message';
import type { Locale } from './locales';
import { loadMessages } from './messages';

/** A domain message (lib/errors/domain-message.ts) as text in one language. */
export type DomainTranslator = (message: DomainMessage) => string;

type IntlError = Parameters<NonNullable<Parameters<typeof createTranslator>[0]['onError']>>[0];

/**
 * The translator of one language's domain catalogue: values that are messages are translated first, a list joined by
 * the catalogue's own `listSeparator`. `onError` sees a missing key or value (by default use-intl logs it and shows
 * the key).
 */
export function domainTranslator(locale: Locale, catalogue: AbstractIntlMessages, onError?: (error: IntlError) => void): DomainTranslator {
  const translate = createTranslator({ locale, messages: { domain: catalogue }, namespace: 'domain', ...(onError ? { onError } : {}) }) as unknown as (
    key: string,
    values?: Record<string, string | number>,
  ) => string;
  const separator = translate('listSeparator');
  const text = (value: DomainMessageValue): string | number => {
    if (typeof value !== 'object') return value;
    return isMessageList(value) ? value.map(render).join(separator) : render(value);
  };
  function render(message: DomainMessage): string {
    const values = message.values && Object.fromEntries(Object.entries(message.values).map(([name, value]) => [name, text(value)]));
    return translate(message.key, values);
  }
  return render;
}

function isMessageList(value: DomainMessage | readonly DomainMessage[]): value is readonly DomainMessage[] {
  return Array.isArray(value);
}

/** The domain catalogue of the reader's language, for a form's answer. */
export async function loadDomainTranslator(locale: Locale): Promise<DomainTranslator> {
  const { domain } = await loadMessages(locale, ['domain']);
  return domainTranslator(locale, domain as AbstractIntlMessages);
}

/**
 * English, synchronously: for a DomainError's `message` (logs, the CLI, the open API) where it says what a domain
 * message says, so the English wording is written once, in the catalogue.
 */
export const englishText: DomainTranslator = domainTranslator('en', englishDomainCatalogue);
