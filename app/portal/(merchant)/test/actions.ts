'use server';

import { getDb } from '@/lib/db/client';
import { createTestOrder, TEST_ORDER_METHODS, type TestOrderChannel } from '@/lib/portal/test-order';
import { sandboxEnabled } from '@/lib/sandbox/sandbox-enabled';
import type { ActionResult } from '../../_session/action-result';
import { requireMerchant } from '../../_session/require-merchant';

const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

export async function createTestOrderAction(input: Record<string, unknown>): Promise<ActionResult<{ orderNo: string; merchantOrderNo: string; payUrl: string }>> {
  const merchant = await requireMerchant();
  // Test orders exist only where the simulators pay them: never against a real upstream.
  if (!sandboxEnabled()) return { ok: false, message: 'The sandbox is off on this service.' };
  const channel = text(input.channel) as TestOrderChannel;
  if (!Object.hasOwn(TEST_ORDER_METHODS, channel)) return { ok: false, message: 'channel: choose a channel', fieldErrors: { channel: 'channel: choose a channel' } };
  const methods: readonly string[] = TEST_ORDER_METHODS[channel];
  const payMethod = methods.includes(text(input.payMethod)) ? text(input.payMethod) : methods[0]!;
  const result = await createTestOrder(getDb(), merchant, { channel, payMethod, amount: text(input.amount), notifyUrl: text(input.notifyUrl), redirectUrl: text(input.redirectUrl) });
  if (!result.ok) return { ok: false, message: result.message };
  return { ok: true, data: { orderNo: result.orderNo, merchantOrderNo: result.merchantOrderNo, payUrl: result.payUrl } };
}
