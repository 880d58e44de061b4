'use server';

import { headers } from 'next/headers';
import { clientAddressFrom } from '@/lib/accounts/client-address';
import { EmailAlreadyRegistered, SignUpThrottled, signUpMerchant, signUpSchema } from '@/lib/accounts/sign-up-merchant';
import { getDb } from '@/lib/db/client';
import { fieldErrorsOf, type ActionResult } from '../_session/action-result';

/** Creates a merchant (orders off until an operator enables them) and its first account; the form then signs in. */
export async function signUpAction(form: { merchantName: string; email: string; password: string }): Promise<ActionResult> {
  const parsed = signUpSchema.safeParse(form);
  if (!parsed.success) return { ok: false, message: 'Check the fields below. / 请检查下面的字段。', fieldErrors: fieldErrorsOf(parsed.error.issues) };
  try {
    await signUpMerchant(getDb(), { ...parsed.data, clientAddress: clientAddressFrom((await headers()).get('x-forwarded-for')), now: new Date() });
    return { ok: true, data: undefined };
  } catch (error) {
    if (error instanceof EmailAlreadyRegistered) {
      return { ok: false, message: 'This email already has an account. / 该邮箱已注册。', fieldErrors: { email: 'Already registered / 已注册' } };
    }
    if (error instanceof SignUpThrottled) return { ok: false, message: 'Too many sign-ups from your network. Try again later. / 注册过于频繁，请稍后再试。' };
    throw error;
  }
}
