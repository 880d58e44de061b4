import type { UsableCredential } from '../../credentials/find-usable-credential';
import { DirectUpstreamError } from '../direct/direct-channel';
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
}

type StoredWechatCredential = Pick<
  UsableCredential,
  'id' | 'upstreamAppId' | 'mchId' | 'merchantCertSerial' | 'privateKey' | 'apiV3Key' | 'platformCertificate' | 'upstreamPublicKey' | 'upstreamPublicKeyId'
>;

/** The account of a stored WECHAT credential; a credential missing a part (never stored so by validation) is refused. */
export function wechatAccountOf(credential: StoredWechatCredential): WechatAccount {
  const { mchId, merchantCertSerial, apiV3Key } = credential;
  if (!mchId || !merchantCertSerial || !apiV3Key) throw new DirectUpstreamError(`WECHAT credential ${credential.id} lacks mchid, certificate serial or APIv3 key`);
  let verifier: WechatVerifier;
  try {
    verifier = wechatVerifier({ platformCertificate: credential.platformCertificate, publicKey: credential.upstreamPublicKey, publicKeyId: credential.upstreamPublicKeyId });
  } catch {
    throw new DirectUpstreamError(`WECHAT credential ${credential.id} has an unreadable platform certificate or public key`);
  }
  if (!verifier.certificate && !verifier.publicKey) throw new DirectUpstreamError(`WECHAT credential ${credential.id} has no platform certificate nor WeChat Pay public key`);
  return { credentialId: credential.id, mchId, appId: credential.upstreamAppId, merchantCertSerial, privateKey: credential.privateKey, apiV3Key, verifier };
}
