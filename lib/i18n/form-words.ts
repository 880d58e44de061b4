import { loadDomainTranslator } from './domain-translator';
import type { Locale } from './locales';
import { loadMessages } from './messages';
import type { FormWords } from '../errors/form-answer';

/**
 * The form words of one language: the kinds' texts from the common catalogue (its both-languages test keeps every kind
 * there) and the domain catalogue's translator for what an error says itself.
 */
export async function formWords(locale: Locale): Promise<FormWords> {
  const [{ common }, translate] = await Promise.all([loadMessages(locale, ['common']), loadDomainTranslator(locale)]);
  return { ...(common as { formErrors: Omit<FormWords, 'translate'> }).formErrors, translate };
}
