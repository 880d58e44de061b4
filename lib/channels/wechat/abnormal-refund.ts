import { constants, publicEncrypt, type KeyObject } from 'node:crypto';
import type { Database } from '../../db/client';
import type { AbnormalRemedy, RefundAttempt, RefundOutcome } from '../../refunds/channel-refunds';
import type { WechatAccount } from './account';
import { callWechat, WechatUpstreamError } from './client';
import { accountFor, refundOutcomeOf, wechatRefundSchema } from './refunds';

/**
 * The key WeChat decrypts sensitive fields with: the one named by the `Wechatpay-Serial` we send (the WeChat Pay
 * public key, or the newest platform certificate), as "敏感信息加密" requires.
 */
function encryptingKey(account: WechatAccount): KeyObject {
  const { verifier, acceptSerial } = account;
  if (verifier.publicKey?.id === acceptSerial) return verifier.publicKey.key;
  const certificate = verifier.certificates.find((candidate) => candidate.serial === acceptSerial);
  if (!certificate) throw new WechatUpstreamError(`no WeChat Pay key ${acceptSerial} to encrypt the payer's bank details with`);
  return certificate.key;
}

/** RSAES-OAEP (SHA-1, MGF1), base64: WeChat Pay's encryption of a sensitive request field. */
function encrypted(key: KeyObject, text: string): string {
  return publicEncrypt({ key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' }, Buffer.from(text, 'utf8')).toString('base64');
}

/**
 * `POST /v3/refund/domestic/refunds/{refund_id}/apply-abnormal-refund` (发起异常退款,
 * https://pay.weixin.qq.com/doc/v3/merchant/4013071193): for a refund WeChat reports ABNORMAL, by its refund_id with
 * our out_refund_no and the remedy's `type`: USER_BANK_CARD (bank_type, and bank_account and real_name encrypted) or
 * MERCHANT_BANK_CARD. The answer is the refund (PROCESSING again); its refusal is the merchant's to read, never a
 * refund failure: the refund stays abnormal.
 */
export async function applyAbnormalRefund(db: Database, attempt: RefundAttempt, remedy: AbnormalRemedy): Promise<RefundOutcome> {
  const refundId = attempt.refund.upstreamRefundId;
  if (!refundId) return { state: 'unknown', reason: `refund ${attempt.refund.refundNo} has no WeChat Pay refund_id yet` };
  const { config, account } = await accountFor(db, attempt);
  const body: Record<string, string> = { out_refund_no: attempt.refund.refundNo, type: remedy.type };
  if (remedy.type === 'USER_BANK_CARD') {
    const key = encryptingKey(account);
    Object.assign(body, { bank_type: remedy.bankType, bank_account: encrypted(key, remedy.bankAccount), real_name: encrypted(key, remedy.realName) });
  }
  const { json } = await callWechat(config, account, {
    operation: 'abnormal_refund',
    method: 'POST',
    pathWithQuery: `/v3/refund/domestic/refunds/${encodeURIComponent(refundId)}/apply-abnormal-refund`,
    body,
  });
  const parsed = wechatRefundSchema.safeParse(json);
  if (!parsed.success || parsed.data.out_refund_no !== attempt.refund.refundNo) return { state: 'unknown', reason: 'WeChat Pay answered no readable refund' };
  return refundOutcomeOf(parsed.data, attempt.refund.amountMinor);
}
