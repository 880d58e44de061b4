import { getLocale } from 'next-intl/server';
import { portalRefusal, type ActionResult } from '@/lib/callers/portal-action';
import { formWords } from '@/lib/errors/form-words';
import { isLocale } from '@/lib/i18n/locales';

export type { ActionResult };

/** The portal's one mapping of domain errors to what the form shows (lib/callers/portal-action.ts), in the merchant's language. */
export async function refusal(error: unknown): Promise<{ ok: false; message: string; fieldErrors?: Record<string, string> }> {
  const locale = await getLocale();
  return portalRefusal(error, await formWords(isLocale(locale) ? locale : 'en'));
}

/** zod issues to one message per field. */
export function fieldErrorsOf(issues: readonly { path: readonly PropertyKey[]; message: string }[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const name = String(issue.path[0] ?? 'form');
    errors[name] ??= issue.message;
  }
  return errors;
}
