import type { OperatorActionResult } from './operator-action';

/** A console form's input refused before anything runs: the message, shown by the field it is about. */
export function fieldRefusal(field: string, message: string): OperatorActionResult<never> {
  return { ok: false, message, fieldErrors: { [field]: message } };
}
