import type { Database } from '../db/client';
import type { CredentialChannel } from './credentials';
import type { AlipayCredentialInput, WechatCredentialInput } from './validate-credential';

/** What a channel's simulator offers as a merchant credential: exactly what a merchant would submit in the portal. */
export type SandboxCredential = { channel: 'ALIPAY'; credential: AlipayCredentialInput } | { channel: 'WECHAT'; credential: WechatCredentialInput };

/** Reads (or creates, the first time) the simulator's application keys from the database. */
export type SandboxCredentialProvider = (db: Database) => Promise<SandboxCredential>;

/** Thrown when a channel has no simulator credential to offer. */
export class SandboxCredentialUnavailable extends Error {
  constructor(readonly channel: CredentialChannel) {
    super(`${channel} sandbox credentials are not available`);
    this.name = 'SandboxCredentialUnavailable';
  }
}
