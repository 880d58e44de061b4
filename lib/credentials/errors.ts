/** Typed outcomes of credential actions; the portal and the CLI turn them into messages. */

/** The submitted credential has bad fields; `fieldErrors` names each one (keys are the input's field names). */
export class InvalidCredential extends Error {
  constructor(readonly fieldErrors: Readonly<Record<string, string>>) {
    super(Object.values(fieldErrors).join('; '));
    this.name = 'InvalidCredential';
  }
}

/** No such credential within the caller's reach (another merchant's, deleted, or unknown). */
export class CredentialNotFound extends Error {
  constructor(readonly credentialId: number) {
    super(`credential not found: ${credentialId}`);
    this.name = 'CredentialNotFound';
  }
}

/** The action is not allowed as asked (a rejection without a reason). */
export class CredentialActionRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CredentialActionRefused';
  }
}
