import { DomainError } from '../errors/domain-error';
import type { RequestFields } from './request-fields';

/** `&name=` inside a value: where the signed text would show another field. */
const EMBEDDED_PAIR = /&([^&=]+)=/g;

/**
 * Refuses a value that makes the signed text ambiguous (1001 naming the field). The contract signs
 * `name=value&name=value…` with raw values, so `productName: "VIP&redirectUrl=https://evil.example/"` is signed by
 * exactly the text of `{productName: "VIP", redirectUrl: "https://evil.example/"}`: a shop that signs its buyer's
 * text would also sign a request with fields it never chose. The signing cannot change; such values are refused.
 * `&` followed by anything that is not one of `fieldNames` and `=` stays accepted.
 */
export function refuseAmbiguousValues(fields: RequestFields, fieldNames: ReadonlySet<string>): void {
  // Not Object.entries: on the parsed fields (an object without a prototype) it cost more than all the rest.
  for (const name of Object.keys(fields)) {
    const value = fields[name];
    if (value === undefined || !value.includes('&')) continue;
    for (const [pair, embedded] of value.matchAll(EMBEDDED_PAIR)) {
      if (!fieldNames.has(embedded!)) continue;
      throw new DomainError('ambiguous_signed_value', {
        message: `${name} must not contain "${pair}": in the signed text it would read as a separate ${embedded} field`,
      });
    }
  }
}
