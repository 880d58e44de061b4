import { DomainError } from '../errors/domain-error';
import { operatorFormRefusal, type FormRefusal, type FormWords } from '../errors/form-answer';
import type { OperatorContext } from '../operator/operator-context';

export type OperatorActionResult<T = undefined> = { ok: true; data: T } | FormRefusal;

/**
 * The one wrapper for operator console actions: the operator is established first by `authenticate` (the app's
 * session check, which redirects and never returns for anyone else, so nothing runs), then the work, whose
 * DomainErrors become the form's answer (lib/errors/form-answer.ts). Anything else is rethrown (a real failure).
 * `field` is the form field an invalid address belongs to; `words` come in the operator's language.
 */
export async function runOperatorAction<T>(
  authenticate: () => Promise<OperatorContext>,
  work: (operator: OperatorContext) => Promise<T>,
  options: { field?: string; words: () => Promise<FormWords> },
): Promise<OperatorActionResult<T>> {
  const operator = await authenticate();
  try {
    return { ok: true, data: await work(operator) };
  } catch (error) {
    if (error instanceof DomainError) return operatorFormRefusal(error, await options.words(), options.field);
    throw error;
  }
}
