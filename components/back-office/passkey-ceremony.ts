import { browserSupportsWebAuthn, startAuthentication, startRegistration, type PublicKeyCredentialCreationOptionsJSON, type PublicKeyCredentialRequestOptionsJSON, type RegistrationResponseJSON } from '@simplewebauthn/browser';
import { encodePasskeyAnswer } from '@/lib/accounts/passkey-answer';

/** Why a ceremony gave no answer: no WebAuthn here, the person cancelled (or has no passkey here), the service refused. */
export type PasskeyCeremonyFailure = 'unsupported' | 'cancelled' | 'refused';

export class PasskeyCeremonyFailed extends Error {
  constructor(readonly failure: PasskeyCeremonyFailure, message: string) {
    super(message);
  }
}

/** Why a ceremony that threw gave no answer: anything but the service's own refusal reads as the prompt dismissed. */
export function ceremonyFailureOf(error: unknown): PasskeyCeremonyFailure {
  return error instanceof PasskeyCeremonyFailed ? error.failure : 'cancelled';
}

async function ceremonyOptions<T>(purpose: 'register' | 'step_up' | 'sign_in' | 'second_factor'): Promise<{ challengeId: string; options: T }> {
  if (!browserSupportsWebAuthn()) throw new PasskeyCeremonyFailed('unsupported', 'this browser has no WebAuthn');
  const response = await fetch('/api/passkeys/options', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ purpose }) });
  if (!response.ok) throw new PasskeyCeremonyFailed('refused', `the service answered ${response.status}`);
  return (await response.json()) as { challengeId: string; options: T };
}

/** The browser's errors when the prompt is dismissed, times out, or finds no passkey of this service. */
function asFailure(error: unknown): never {
  if (error instanceof PasskeyCeremonyFailed) throw error;
  throw new PasskeyCeremonyFailed('cancelled', error instanceof Error ? error.message : String(error));
}

/** A passkey's answer to a sign-in, a second step or a step-up, as the text its form posts (passkey-answer.ts). */
export async function passkeyAnswer(purpose: 'step_up' | 'sign_in' | 'second_factor'): Promise<string> {
  const { challengeId, options } = await ceremonyOptions<PublicKeyCredentialRequestOptionsJSON>(purpose);
  const response = await startAuthentication({ optionsJSON: options }).catch(asFailure);
  return encodePasskeyAnswer({ challengeId, response });
}

/** A new passkey made by this device (or the person's passkey manager) for the signed-in account. */
export async function newPasskey(): Promise<{ challengeId: string; response: RegistrationResponseJSON }> {
  const { challengeId, options } = await ceremonyOptions<PublicKeyCredentialCreationOptionsJSON>('register');
  const response = await startRegistration({ optionsJSON: options }).catch(asFailure);
  return { challengeId, response };
}
