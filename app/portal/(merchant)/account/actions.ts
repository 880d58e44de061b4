'use server';

import { getTranslations } from 'next-intl/server';
import { z } from 'zod';
import { changePassword } from '@/lib/accounts/change-password';
import { newPasswordSchema } from '@/lib/accounts/passwords';
import { getDb } from '@/lib/db/client';
import { setCloseNotices } from '@/lib/merchants/close-notices';
import { setMerchantTimeZone } from '@/lib/merchants/merchant-time-zone';
import { portalActor } from '@/lib/portal/merchant-context';
import { fieldErrorsOf, refusal, type ActionResult } from '../../_session/action-result';
import { requireMerchant } from '../../_session/require-merchant';

const changePasswordSchema = z.object({ password: z.string().min(1, 'Required'), newPassword: newPasswordSchema });

/** Changes the password; every session of the account (this one too) ends, so the form signs in again. */
export async function changePasswordAction(input: { password: string; newPassword: string }): Promise<ActionResult<{ email: string }>> {
  const merchant = await requireMerchant();
  const parsed = changePasswordSchema.safeParse(input);
  if (!parsed.success) {
    const [t, fields] = await Promise.all([getTranslations('portal.account'), getTranslations('portal.account.fieldErrors')]);
    return { ok: false, message: t('checkFields'), fieldErrors: fieldErrorsOf(parsed.error.issues, fields) };
  }
  try {
    await changePassword(getDb(), { accountId: merchant.accountId, currentPassword: parsed.data.password, newPassword: parsed.data.newPassword, now: new Date() });
    return { ok: true, data: { email: merchant.email } };
  } catch (error) {
    return refusal(error);
  }
}

/** Sets the zone the back office shows times in; the form reads the page again to show them in it. */
export async function saveTimeZoneAction(input: { timeZone: string }): Promise<ActionResult<{ timeZone: string }>> {
  const merchant = await requireMerchant();
  try {
    const timeZone = await setMerchantTimeZone(getDb(), {
      merchantId: merchant.merchantId,
      timeZone: typeof input?.timeZone === 'string' ? input.timeZone : '',
      actor: portalActor(merchant),
      now: new Date(),
    });
    return { ok: true, data: { timeZone } };
  } catch (error) {
    return refusal(error);
  }
}

/** Opts in or out of close and expiry notices (off by default). */
export async function saveCloseNoticesAction(input: { enabled: boolean }): Promise<ActionResult<{ enabled: boolean }>> {
  const merchant = await requireMerchant();
  try {
    const enabled = await setCloseNotices(getDb(), { merchantId: merchant.merchantId, enabled: input?.enabled === true, actor: portalActor(merchant), now: new Date() });
    return { ok: true, data: { enabled } };
  } catch (error) {
    return refusal(error);
  }
}
