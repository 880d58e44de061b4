'use server';

import { assertRoleMay } from '@/lib/accounts/team-roles';
import { revalidatePath } from 'next/cache';
import { getTranslations } from 'next-intl/server';
import { CREDENTIAL_CHANNEL_NAMES } from '@/lib/channels/channel-names';
import { addSandboxCredential } from '@/lib/channels/add-sandbox-credential';
import { getDb } from '@/lib/db/client';
import { portalActor } from '@/lib/portal/merchant-context';
import { createTestOrder, TEST_ORDER_METHODS, type TestOrderChannel } from '@/lib/portal/test-order';
import { sandboxEnabled } from '@/lib/sandbox/sandbox-enabled';
import { refusal, type ActionResult } from '../../_session/action-result';
import { requireMerchant } from '../../_session/require-merchant';

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

export async function createTestOrderAction(input: Record<string, unknown>): Promise<ActionResult<{ orderNo: string; merchantOrderNo: string; payUrl: string }>> {
  const merchant = await requireMerchant();
  try {
    assertRoleMay(merchant, 'developerTools');
    const t = await getTranslations('portal.test');
    // Test orders exist only where the simulators pay them: never against a real upstream.
    if (!sandboxEnabled()) return { ok: false, message: t('sandboxOff') };
    const channel = text(input.channel) as TestOrderChannel;
    if (!Object.hasOwn(TEST_ORDER_METHODS, channel)) return { ok: false, message: t('chooseChannel'), fieldErrors: { channel: t('chooseChannel') } };
    const methods: readonly string[] = TEST_ORDER_METHODS[channel];
    const payMethod = methods.includes(text(input.payMethod)) ? text(input.payMethod) : methods[0]!;
    const created = await createTestOrder(getDb(), merchant, { channel, payMethod, amount: text(input.amount), notifyUrl: text(input.notifyUrl), redirectUrl: text(input.redirectUrl), productName: t('productName') });
    revalidatePath('/portal/orders');
    return { ok: true, data: created };
  } catch (error) {
    return refusal(error);
  }
}

/**
 * Gives the merchant the simulator's credential of a channel, approved and enabled, as the operator CLI's
 * `credential add --sandbox --approve --enable` does: only while the sandbox is on (the domain function refuses a
 * database that is not in sandbox mode too).
 */
export async function addSandboxCredentialAction(channel: unknown): Promise<ActionResult<{ channel: string }>> {
  const merchant = await requireMerchant();
  try {
    assertRoleMay(merchant, 'developerTools');
    const t = await getTranslations('portal.test');
    if (!sandboxEnabled()) return { ok: false, message: t('sandboxOff') };
    const name = CREDENTIAL_CHANNEL_NAMES.find((candidate) => candidate === channel);
    if (!name) return { ok: false, message: t('chooseChannel') };
    await addSandboxCredential(getDb(), { appId: merchant.appId, channel: name, approve: true, enable: true, actor: portalActor(merchant) });
    revalidatePath('/portal/credentials');
    revalidatePath('/portal/test');
    return { ok: true, data: { channel: name } };
  } catch (error) {
    return refusal(error);
  }
}
