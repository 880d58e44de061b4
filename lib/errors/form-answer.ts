import { type DomainError, type DomainErrorKind } from './domain-error';
import type { DomainMessage } from './domain-message';

/** What a portal or console form shows for a refused action. */
export interface FormRefusal {
  ok: false;
  message: string;
  fieldErrors?: Record<string, string>;
}

/**
 * A form's words in the reader's language (`formErrors` in the common catalogue, and the domain catalogue for what the
 * error itself says: lib/i18n/form-words.ts).
 */
export interface FormWords {
  /** The text of each kind when the error brings no `userMessage` of its own. */
  readonly kinds: Readonly<Record<DomainErrorKind, string>>;
  readonly address: string;
  readonly notFound: string;
  /** A domain message (an error's `userMessage`, its field errors) in the reader's language. */
  readonly translate: (message: DomainMessage) => string;
}

/** A merchant's form: the error's own explanation, else its kind's text; never internal details. */
export function merchantFormRefusal(error: DomainError, words: FormWords): FormRefusal {
  return withFields(error.userMessage ? words.translate(error.userMessage) : words.kinds[error.kind], translatedFields(error, words));
}

/**
 * An operator's console form: operators may read what was not found and why, so the domain message is shown.
 * `field` is the form field an invalid address belongs to.
 */
export function operatorFormRefusal(error: DomainError, words: FormWords, field?: string): FormRefusal {
  switch (error.kind) {
    case 'invalid_receiving_address': {
      // The domain's message may name the field already ("address: …"): the form's own word replaces it, never doubles it.
      const message = `${words.address}: ${error.message.replace(/^address: /, '')}`;
      return { ok: false, message, fieldErrors: { [field ?? 'address']: message } };
    }
    case 'not_found':
    case 'merchant_not_found':
      return { ok: false, message: `${error.message} (${words.notFound})` };
    default: {
      const message = error.userMessage ? words.translate(error.userMessage) : error.message;
      // Domain messages that concern one field start with its name ("reason: …", "note: …").
      const named = /^(\w+): /.exec(message)?.[1];
      return withFields(message, translatedFields(error, words) ?? (named ? { [named]: message } : undefined));
    }
  }
}

function translatedFields(error: DomainError, words: FormWords): Record<string, string> | undefined {
  if (!error.fieldErrors) return undefined;
  return Object.fromEntries(Object.entries(error.fieldErrors).map(([field, message]) => [field, words.translate(message)]));
}

function withFields(message: string, fieldErrors: Readonly<Record<string, string>> | undefined): FormRefusal {
  return fieldErrors ? { ok: false, message, fieldErrors: { ...fieldErrors } } : { ok: false, message };
}
