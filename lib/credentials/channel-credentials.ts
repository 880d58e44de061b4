import type { Database } from '../db/client';
import type { DomainMessage } from '../errors/domain-message';
import type { CredentialForm } from './credential-form';

/**
 * What a channel stores of a valid credential (the upstream_credentials columns it uses); the secrets are given in
 * clear here and encrypted by lib/credentials before they are written.
 */
export interface CredentialColumns {
  upstreamAppId: string;
  privateKey: string;
  upstreamPublicKey: string | null;
  sellerId?: string | null;
  mchId?: string | null;
  merchantCertSerial?: string | null;
  apiV3Key?: string | null;
  upstreamPublicKeyId?: string | null;
  platformCertificate?: string | null;
}

/** The non-secret columns of a stored credential, which its one-line description is made of. */
export interface StoredCredentialFields {
  upstreamAppId: string;
  sellerId: string | null;
  mchId: string | null;
  merchantCertSerial: string | null;
  upstreamPublicKeyId: string | null;
  platformCertificate: boolean;
}

/** What a channel's simulator offers as a merchant credential: exactly the fields a merchant would submit in the portal. */
export type SandboxCredentialProvider = (db: Database) => Promise<Readonly<Record<string, string>>>;

/**
 * A channel's merchant credentials (part of the Channel interface, for channels whose orders use the merchant's own
 * upstream application): the form a merchant fills in, the fields' validation, how a stored one is described, and the
 * simulator's credential for `credential add --sandbox`.
 */
export interface ChannelCredentials {
  /** The portal's form: the inputs a merchant fills in, their labels and hints by message key. */
  readonly form: CredentialForm;
  /**
   * Field names by input name, as validation errors name them (domain messages: the errors reach the portal in the
   * merchant's language, the CLI in English).
   */
  readonly fieldLabels: Readonly<Record<string, DomainMessage>>;
  /** Checks the submitted fields; throws an invalid_credential DomainError naming every bad field. */
  validate(input: Readonly<Record<string, unknown>>, now: Date): CredentialColumns;
  /** The non-secret fields of a stored credential, as one line (portal and console lists). */
  describe(stored: StoredCredentialFields): string;
  /** The simulator's credential; absent when the channel's simulator offers none. */
  readonly sandbox?: SandboxCredentialProvider;
}
