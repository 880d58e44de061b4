import { getLocale } from 'next-intl/server';
import { portalRefusal, type ActionResult } from '@/lib/callers/portal-action';
import { formWords } from '@/lib/i18n/form-words';
import { isLocale } from '@/lib/i18n/locales';

export type { ActionResult };

/** The portal's one mapping of domain errors to what the form shows (lib/callers/portal-action.ts), in the merchant's language. */
export async function refusal(error: unknown): Promise<{ ok: false; message: string; fieldErrors?: Record<string, string> }> {
  const locale = await getLocale();
  return portalRefusal(error, await formWords(isLocale(locale) ? locale : 'en'));
}

/** A page's messages for a form's fields, keyed `<field>.<zod issue code>` (next-intl's translator of that part of the catalogue). */
export interface FieldMessages {
  (key: string): string;
  has(key: string): boolean;
}

/**
 * zod issues to one message per field, in the merchant's language: the catalogue's message for the field and the
 * issue's code (`password.too_small`); an issue the catalogue does not name keeps zod's own (English) message.
 */
export function fieldErrorsOf(issues: readonly { path: readonly PropertyKey[]; code: string; message: string }[], messages: FieldMessages): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const name = String(issue.path[0] ?? 'form');
    const key = `${name}.${issue.code}`;
    errors[name] ??= messages.has(key) ? messages(key) : issue.message;
  }
  return errors;
}
