import { loadDomainTranslator } from '../i18n/domain-translator';
import type { Locale } from '../i18n/locales';
import { loadMessages } from '../i18n/messages';
import type { FormWords } from './form-answer';

/**
 * The form words of one language: the kinds' texts from the common catalogue (its both-languages test keeps every kind
 * there) and the domain catalogue's translator for what an error says itself.
 */
export async function formWords(locale: Locale): Promise<FormWords> {
  const [{ common }, translate] = await Promise.all([loadMessages(locale, ['common']), loadDomainTranslator(locale)]);
  return { ...(common as { formErrors: Omit<FormWords, 'translate'> }).formErrors, translate };
}
