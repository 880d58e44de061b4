import type { Database } from '../../db/client';
import type { SandboxCredentialProvider } from '../../credentials/channel-credentials';
import { ALIPAY_SANDBOX_SELLER_ID, alipaySandboxKeys } from './sandbox-keys';

/**
 * An ALIPAY credential bound to the built-in Alipay simulator's application: its app id and private key, the
 * simulator's "Alipay" public key and its seller's user id. Any number of merchants may share it (as developers share an Alipay sandbox app).
 */
export const alipaySandboxCredential: SandboxCredentialProvider = async (db: Database) => {
  const keys = await alipaySandboxKeys(db);
  return { appId: keys.appId, appPrivateKey: keys.appPrivateKey, alipayPublicKey: keys.alipayPublicKey, sellerId: ALIPAY_SANDBOX_SELLER_ID };
};
