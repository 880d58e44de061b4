import type { Database } from '../../db/client';
import type { SandboxCredentialProvider } from '../../credentials/channel-credentials';
import { sandboxCredentialUnavailable } from '../../credentials/errors';
import { WechatSandboxOff, wechatSandboxCredentialInput } from './sandbox-keys';

/** A WECHAT credential bound to the built-in WeChat Pay simulator (WeChat Pay public key mode); refused where the sandbox is off. */
export const wechatSandboxCredential: SandboxCredentialProvider = async (db: Database) => {
  try {
    return { ...(await wechatSandboxCredentialInput(db)) };
  } catch (error) {
    if (error instanceof WechatSandboxOff) throw sandboxCredentialUnavailable('WECHAT');
    throw error;
  }
};
