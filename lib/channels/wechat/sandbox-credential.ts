import type { Database } from '../../db/client';
import { SandboxCredentialUnavailable, type SandboxCredentialProvider } from '../../credentials/sandbox-credential-providers';
import { WechatSandboxOff, wechatSandboxCredentialInput } from './sandbox-keys';

/** A WECHAT credential bound to the built-in WeChat Pay simulator (WeChat Pay public key mode); refused where the sandbox is off. */
export const wechatSandboxCredential: SandboxCredentialProvider = async (db: Database) => {
  try {
    return { channel: 'WECHAT', credential: await wechatSandboxCredentialInput(db) };
  } catch (error) {
    if (error instanceof WechatSandboxOff) throw new SandboxCredentialUnavailable('WECHAT');
    throw error;
  }
};
