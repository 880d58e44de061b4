/**
 * Test support for the Playwright specs (never part of the app): creates a WECHAT order of a merchant on the running
 * service's database the way the direct channels' submit does, through the WeChat adapter and the built-in WeChat
 * sandbox (reached at PUBLIC_BASE_URL), with a sandbox-bound credential. The open API's WECHAT submit is wired in at
 * merge; then the specs can submit instead.
 *
 *   npx tsx e2e/wechat/create-wechat-order.ts <appId> <native|h5> <amountFen> <notifyUrl> [redirectUrl] [expiresInSeconds]
 * prints {"orderNo","payToken","payUrl","cashierUrl","qrContent"}.
 */
import { closeDb, getDb } from '../../lib/db/client';
import { resolveDatabase } from '../../lib/db/connect';
import { findMerchantForSigning } from '../../lib/merchants/merchants';
import { aWechatCredential, aWechatOrder } from '../../test/factories';

const [appId, payMethod, amountFen, notifyUrl, redirectUrl, expiresInSeconds] = process.argv.slice(2);
if (!appId || (payMethod !== 'native' && payMethod !== 'h5') || !/^\d+$/.test(amountFen ?? '') || !notifyUrl) {
  process.stderr.write('usage: create-wechat-order.ts <appId> <native|h5> <amountFen> <notifyUrl> [redirectUrl] [expiresInSeconds]\n');
  process.exit(1);
}
const database = await resolveDatabase({ owner: false, migrate: false, log: () => undefined });
try {
  const found = await findMerchantForSigning(getDb(), appId);
  if (!found) throw new Error(`no merchant ${appId}`);
  const credential = await aWechatCredential(found.merchant.id);
  const { order, upstream, payUrl } = await aWechatOrder({
    merchantId: found.merchant.id,
    credential,
    payMethod,
    amountMinor: BigInt(amountFen!),
    productName: 'E2E WeChat VIP',
    notifyUrl,
    redirectUrl: redirectUrl || undefined,
    attach: 'e2e',
    expiresAt: expiresInSeconds ? new Date(Date.now() + Number(expiresInSeconds) * 1000) : undefined,
  });
  process.stdout.write(`${JSON.stringify({ orderNo: order.orderNo, merchantOrderNo: order.merchantOrderNo, payToken: order.payToken, payUrl, cashierUrl: upstream.cashierUrl, qrContent: upstream.qrContent })}\n`);
} finally {
  await closeDb();
  if (database.embedded?.startedHere) await database.embedded.stop();
}
process.exit(0);
