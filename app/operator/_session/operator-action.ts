import { CredentialActionRefused, CredentialNotFound } from '@/lib/credentials/errors';
import { InvalidReceivingAddress, ReceivingAddressNotFound } from '@/lib/addresses/receiving-addresses';
import { MerchantNotFound } from '@/lib/merchants/merchants';
import { OperatorActionRefused } from '@/lib/orders/operator-errors';
import type { OperatorContext } from '@/lib/operator/operator-context';
import { requireOperator } from './require-operator';

export type OperatorActionResult<T = undefined> = { ok: true; data: T } | { ok: false; message: string; fieldErrors?: Record<string, string> };

/** The domain's refusals as the form shows them; anything else is rethrown (a real failure). */
function refusal(error: unknown, field?: string): { ok: false; message: string; fieldErrors?: Record<string, string> } {
  if (error instanceof InvalidReceivingAddress) {
    const message = `Address · 地址: ${error.message}`;
    return { ok: false, message, fieldErrors: { [field ?? 'address']: message } };
  }
  if (error instanceof OperatorActionRefused || error instanceof CredentialActionRefused) {
    // Domain messages that concern one field start with its name ("reason: …", "note: …").
    const named = /^(\w+): /.exec(error.message)?.[1];
    return { ok: false, message: error.message, fieldErrors: named ? { [named]: error.message } : undefined };
  }
  if (error instanceof CredentialNotFound || error instanceof ReceivingAddressNotFound || error instanceof MerchantNotFound) {
    return { ok: false, message: `${error.message} / 未找到` };
  }
  throw error;
}

/**
 * Every operator server action runs through here: the operator is re-read from the database first (a merchant's or
 * no session is redirected to sign-in and nothing runs), then the work, whose refusals become the form's message.
 */
export async function operatorAction<T>(
  work: (operator: OperatorContext) => Promise<T>,
  options: { field?: string } = {},
): Promise<OperatorActionResult<T>> {
  const operator = await requireOperator();
  try {
    return { ok: true, data: await work(operator) };
  } catch (error) {
    return refusal(error, options.field);
  }
}

/** Values from the browser are taken as text (or an id), never trusted for their type. */
export const asText = (value: unknown): string => (typeof value === 'string' ? value : '');
export const asId = (value: unknown): number => {
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(number) && number > 0 ? number : 0;
};
