'use server';

import { headers } from 'next/headers';
import { getTranslations } from 'next-intl/server';
import { clientAddressFrom } from '@/lib/accounts/client-address';
import { requestSignUp, signUpSchema } from '@/lib/accounts/sign-up-merchant';
import { getDb } from '@/lib/db/client';
import { fieldErrorsOf, refusal, type ActionResult } from '../_session/action-result';

/**
 * Creates a merchant (orders off until an operator enables them) and its first account; the same answer for an email
 * that already has an account (requestSignUp). The form then sends the person to sign in.
 */
export async function signUpAction(form: { merchantName: string; email: string; password: string }): Promise<ActionResult> {
  const parsed = signUpSchema.safeParse(form);
  if (!parsed.success) {
    const [t, fields] = await Promise.all([getTranslations('portal.signUp'), getTranslations('portal.signUp.fieldErrors')]);
    return { ok: false, message: t('checkFields'), fieldErrors: fieldErrorsOf(parsed.error.issues, fields) };
  }
  try {
    await requestSignUp(getDb(), { ...parsed.data, clientAddress: clientAddressFrom((await headers()).get('x-forwarded-for')), now: new Date() });
    return { ok: true, data: undefined };
  } catch (error) {
    return refusal(error);
  }
}
