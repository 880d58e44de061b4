import type { Database } from '../../db/client';
import type { SandboxCredentialProvider } from '../../credentials/sandbox-credential-providers';
import { ALIPAY_SANDBOX_SELLER_ID, alipaySandboxKeys } from '../../sandbox/alipay-sandbox-keys';

/**
 * An ALIPAY credential bound to the built-in Alipay simulator's application: its app id and private key, the
 * simulator's "Alipay" public key and its seller's user id. Any number of merchants may share it (as developers share an Alipay sandbox app).
 */
export const alipaySandboxCredential: SandboxCredentialProvider = async (db: Database) => {
  const keys = await alipaySandboxKeys(db);
  return {
    channel: 'ALIPAY',
    credential: { appId: keys.appId, appPrivateKey: keys.appPrivateKey, alipayPublicKey: keys.alipayPublicKey, sellerId: ALIPAY_SANDBOX_SELLER_ID },
  };
};
