import { alipaySandboxCredential } from '../channels/alipay/sandbox-credential';
import { wechatSandboxCredential } from '../channels/wechat/sandbox-credential';
import type { CredentialChannel } from '../credentials/credentials';
import type { SandboxCredentialProvider } from '../credentials/sandbox-credential-providers';

/**
 * The simulators that offer merchant credentials to `credential add --sandbox`, by channel: one line per channel.
 */
export const SANDBOX_CREDENTIAL_PROVIDERS: Readonly<Partial<Record<CredentialChannel, SandboxCredentialProvider>>> = {
  ALIPAY: alipaySandboxCredential,
  WECHAT: wechatSandboxCredential,
};
