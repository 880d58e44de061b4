import { DomainError } from '../errors/domain-error';
import { merchantFormRefusal, type FormRefusal, type FormWords } from '../errors/form-answer';

export type ActionResult<T = undefined> = { ok: true; data: T } | FormRefusal;

/**
 * The one place a merchant's portal action turns a DomainError into the form's answer (lib/errors/form-answer.ts),
 * in the merchant's language. Anything else is rethrown: a real failure, for the error page, never shown as a refusal.
 */
export function portalRefusal(error: unknown, words: FormWords): FormRefusal {
  if (error instanceof DomainError) return merchantFormRefusal(error, words);
  throw error;
}
