/**
 * A passkey's answer (a WebAuthn assertion and the id of the challenge it signed), carried where a code would be: the
 * sign-in's second step and a sensitive action's confirmation post one text field, which holds either a code or
 * this. Written by the browser (components/back-office/passkey-button.tsx), read by the server; no dependencies, so
 * that both can load it.
 */
export const PASSKEY_ANSWER_PREFIX = 'passkey:';

export interface PasskeyAnswer {
  challengeId: string;
  /** The browser's AuthenticationResponseJSON, checked field by field on the server. */
  response: unknown;
}

export function encodePasskeyAnswer(answer: PasskeyAnswer): string {
  return `${PASSKEY_ANSWER_PREFIX}${JSON.stringify(answer)}`;
}

/** The answer in a field's text, or undefined when the text is not a passkey's answer (a code, say, or garbage). */
export function decodePasskeyAnswer(text: string): PasskeyAnswer | undefined {
  if (!text.startsWith(PASSKEY_ANSWER_PREFIX)) return undefined;
  try {
    const parsed: unknown = JSON.parse(text.slice(PASSKEY_ANSWER_PREFIX.length));
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { challengeId, response } = parsed as Record<string, unknown>;
    return typeof challengeId === 'string' && typeof response === 'object' && response !== null ? { challengeId, response } : undefined;
  } catch {
    return undefined;
  }
}
