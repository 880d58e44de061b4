import type { UsableCredential } from '../../credentials/find-usable-credential';
import { upstreamFailure } from '../../errors/domain-error';
import { wechatVerifier, type WechatVerifier } from './signing';

/** One WeChat Pay merchant account as the adapter uses it: who we are (mchid, appid, API key) and how WeChat is verified. */
export interface WechatAccount {
  credentialId: number;
  mchId: string;
  appId: string;
  merchantCertSerial: string;
  privateKey: string;
  apiV3Key: string;
  verifier: WechatVerifier;
  /**
   * Sent as `Wechatpay-Serial` on every request: the key we verify with, which WeChat then signs its answer with
   * (the WeChat Pay public key id when the credential has one, as WeChat's SDKs do; else the newest platform
   * certificate's serial).
   */
  acceptSerial: string;
  /** Certificate mode: downloads the platform certificates again (an answer named a serial we do not know yet). */
  refreshVerifier?: () => Promise<WechatVerifier | undefined>;
}

export type StoredWechatCredential = Pick<
  UsableCredential,
  'id' | 'upstreamAppId' | 'mchId' | 'merchantCertSerial' | 'privateKey' | 'apiV3Key' | 'platformCertificate' | 'upstreamPublicKey' | 'upstreamPublicKeyId'
>;

/** The newest platform certificate of a verifier is the last one (stored first, then downloaded by effective time). */
function acceptSerialOf(verifier: WechatVerifier): string | undefined {
  return verifier.publicKey?.id ?? verifier.certificates.at(-1)?.serial;
}

/**
 * The account of a stored WECHAT credential, with the platform certificates downloaded for it (PEMs, oldest first);
 * a credential missing a part (never stored so by validation) is refused.
 */
export function wechatAccountOf(credential: StoredWechatCredential, downloadedCertificates: readonly string[] = []): WechatAccount {
  const { mchId, merchantCertSerial, apiV3Key } = credential;
  if (!mchId || !merchantCertSerial || !apiV3Key) throw upstreamFailure(`WECHAT credential ${credential.id} lacks mchid, certificate serial or APIv3 key`);
  let verifier: WechatVerifier;
  try {
    verifier = wechatVerifier({ platformCertificate: credential.platformCertificate, downloadedCertificates, publicKey: credential.upstreamPublicKey, publicKeyId: credential.upstreamPublicKeyId });
  } catch {
    throw upstreamFailure(`WECHAT credential ${credential.id} has an unreadable platform certificate or public key`);
  }
  const acceptSerial = acceptSerialOf(verifier);
  if (!acceptSerial) throw upstreamFailure(`WECHAT credential ${credential.id} has no platform certificate nor WeChat Pay public key`);
  return { credentialId: credential.id, mchId, appId: credential.upstreamAppId, merchantCertSerial, privateKey: credential.privateKey, apiV3Key, verifier, acceptSerial };
}
