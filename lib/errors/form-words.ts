import type { Locale } from '../i18n/locales';
import { loadMessages } from '../i18n/messages';
import type { FormWords } from './form-answer';

/** The form words of one language, from the common catalogue (its both-languages test keeps every kind there). */
export async function formWords(locale: Locale): Promise<FormWords> {
  const { common } = await loadMessages(locale, ['common']);
  return (common as { formErrors: FormWords }).formErrors;
}
