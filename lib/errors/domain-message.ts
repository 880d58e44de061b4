/**
 * What the domain tells a person, by reference: a key of the domain catalogue (`messages/<locale>/domain.json`) and the
 * ICU values it takes. The domain never writes such text in a language; each transport translates it for its reader
 * (portal and console forms in the reader's language, the CLI and logs in English: lib/i18n/domain-translator.ts).
 *
 * A value may itself be a message (a field's label inside "label: problem") or a list of messages (every bad field),
 * translated in the same language before the message that holds them.
 */
export interface DomainMessage {
  readonly key: string;
  readonly values?: Readonly<Record<string, DomainMessageValue>>;
}

export type DomainMessageValue = string | number | DomainMessage | readonly DomainMessage[];

/**
 * A reference to one domain message. Call it with a literal key and an object literal of values: the catalogue test
 * (lib/i18n/domain-keys.test.ts) reads every call to check that both languages have the key and use exactly those values.
 */
export function domainMessage(key: string, values?: Readonly<Record<string, DomainMessageValue>>): DomainMessage {
  return values ? { key, values } : { key };
}
