import { constants, publicEncrypt, type KeyObject } from 'node:crypto';
import type { Database } from '../../db/client';
import { invalidParameter } from '../../errors/domain-error';
import type { AbnormalRefundRemedy, AbnormalRemedy, AbnormalRemedyInput, RefundAttempt, RefundOutcome } from '../../refunds/channel-refunds';
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
async function applyAbnormalRefund(db: Database, attempt: RefundAttempt, remedy: AbnormalRemedy): Promise<RefundOutcome> {
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

const REMEDY_TYPES = ['USER_BANK_CARD', 'MERCHANT_BANK_CARD'] as const;

/** The merchant's remedy, checked by WeChat Pay's rules: its bank code (bank_type), the card number, the holder's name. */
function parseRemedy(input: AbnormalRemedyInput): AbnormalRemedy {
  if (input.type === 'MERCHANT_BANK_CARD') return { type: 'MERCHANT_BANK_CARD' };
  if (input.type !== 'USER_BANK_CARD') throw invalidParameter(`type must be one of ${REMEDY_TYPES.join(', ')}`);
  const bankType = input.bankType?.trim() ?? '';
  const bankAccount = input.bankAccount?.replace(/\s+/g, '') ?? '';
  const realName = input.realName?.trim() ?? '';
  if (!/^[A-Z0-9_]{2,32}$/.test(bankType)) throw invalidParameter("bankType must be WeChat Pay's bank code, such as ICBC_DEBIT");
  if (!/^\d{8,32}$/.test(bankAccount)) throw invalidParameter('bankAccount must be the bank card number (8 to 32 digits)');
  if (realName === '' || [...realName].length > 64) throw invalidParameter("realName must be the card holder's name (at most 64 characters)");
  return { type: 'USER_BANK_CARD', bankType, bankAccount, realName };
}

/** WeChat Pay's remedy for an abnormal refund (the channel's refunds' abnormalRemedy). */
export const wechatAbnormalRemedy: AbnormalRefundRemedy = { parse: parseRemedy, apply: applyAbnormalRefund };
