import { invalidParameter } from '../errors/domain-error';

/** Top-level fields of an open-API request as raw text: what was signed is exactly what is validated. */
export type RequestFields = Readonly<Record<string, string | undefined>>;

export const MAX_BODY_BYTES = 64 * 1024;

const NUMBER_TOKEN = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** Any surrogate at all: most text has none, and this test is much cheaper than LONE_SURROGATE's look-arounds. */
const ANY_SURROGATE = /[\uD800-\uDFFF]/;

function checkText(name: string, value: string, what: 'field name' | 'value'): void {
  if (value.includes('\u0000')) {
    throw invalidParameter(what === 'value' ? `${name} must not contain NUL characters` : 'field names must not contain NUL characters');
  }
  if (ANY_SURROGATE.test(value) && LONE_SURROGATE.test(value)) {
    throw invalidParameter(what === 'value' ? `${name} is not valid Unicode text` : 'field names must be valid Unicode text');
  }
}

function skipWhitespace(text: string, at: number): number {
  for (;;) {
    const code = text.charCodeAt(at);
    if (code !== 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) return at;
    at += 1;
  }
}

/** Index just past the JSON string starting at `at` (a quote). The text is already known to be valid JSON. */
function stringEnd(text: string, at: number): number {
  let index = at + 1;
  while (text[index] !== '"') index += text[index] === '\\' ? 2 : 1;
  return index + 1;
}

/** The JSON string from `at` to `end` (its quotes included) as text: only one with escapes needs JSON.parse. */
function stringValue(text: string, at: number, end: number): string {
  const inner = text.slice(at + 1, end - 1);
  return inner.includes('\\') ? (JSON.parse(text.slice(at, end)) as string) : inner;
}

/** A literal or number at `at`, as the field's text (null reads as absent), or undefined when none starts there. */
function scalarTokenAt(body: string, at: number): { value: string | undefined; length: number } | undefined {
  if (body.startsWith('true', at)) return { value: 'true', length: 4 };
  if (body.startsWith('false', at)) return { value: 'false', length: 5 };
  if (body.startsWith('null', at)) return { value: undefined, length: 4 };
  NUMBER_TOKEN.lastIndex = at;
  const match = NUMBER_TOKEN.exec(body);
  return match ? { value: match[0], length: match[0].length } : undefined;
}

/**
 * Parses a request body into top-level fields. Numbers keep their JSON text (`12.50` stays "12.50"), booleans
 * become "true"/"false", null is empty. Objects and arrays, duplicate names, NUL and broken Unicode are refused
 * with an error that names the field.
 */
export function parseRequestFields(body: string): RequestFields {
  return plainRequestFields(body) ?? parseAnyRequestFields(body);
}

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const QUOTE = 0x22;
const COLON = 0x3a;
const COMMA = 0x2c;

/**
 * What the one-pass reading leaves to the careful one: an escape, a control character (JSON forbids them raw in
 * strings; a body with line breaks between its tokens is read carefully too) or a surrogate (whose pairing the careful
 * reading checks). Without any, every string's text is its value and ends at the next quote.
 */
const NOT_PLAIN = /[\\\u0000-\u001f\ud800-\udfff]/;

/** Index just past the string starting at `at` in a plain body, or -1 when no string starts there. */
function plainStringEnd(text: string, at: number): number {
  if (text.charCodeAt(at) !== QUOTE) return -1;
  const close = text.indexOf('"', at + 1);
  return close < 0 ? -1 : close + 1;
}

/**
 * The common body in one pass: a JSON object of distinct names whose values are strings, numbers, booleans or null,
 * in a plain body (NOT_PLAIN) with nothing after it; undefined for any other text, which parseAnyRequestFields then
 * reads or refuses. What this accepts is valid JSON that parseAnyRequestFields reads to the same fields: it only
 * spares the JSON.parse that checks a body first and the per-field checks that plain strings pass anyway (a submit's
 * eleven fields: 3.3 µs this way, 6-8 µs the careful way, on the 2-core bench machine).
 */
function plainRequestFields(body: string): RequestFields | undefined {
  if (NOT_PLAIN.test(body)) return undefined;
  const fields: Record<string, string | undefined> = Object.create(null);
  let at = skipWhitespace(body, 0);
  if (body.charCodeAt(at) !== OPEN_BRACE) return undefined;
  at = skipWhitespace(body, at + 1);
  if (body.charCodeAt(at) !== CLOSE_BRACE) {
    for (;;) {
      const nameEnd = plainStringEnd(body, at);
      if (nameEnd < 0) return undefined;
      const name = body.slice(at + 1, nameEnd - 1);
      if (name in fields) return undefined;
      at = skipWhitespace(body, nameEnd);
      if (body.charCodeAt(at) !== COLON) return undefined;
      at = skipWhitespace(body, at + 1);
      if (body.charCodeAt(at) === QUOTE) {
        const end = plainStringEnd(body, at);
        if (end < 0) return undefined;
        fields[name] = body.slice(at + 1, end - 1);
        at = end;
      } else {
        const token = scalarTokenAt(body, at);
        if (!token) return undefined;
        fields[name] = token.value;
        at += token.length;
      }
      at = skipWhitespace(body, at);
      if (body.charCodeAt(at) !== COMMA) break;
      at = skipWhitespace(body, at + 1);
    }
    if (body.charCodeAt(at) !== CLOSE_BRACE) return undefined;
  }
  return skipWhitespace(body, at + 1) === body.length ? fields : undefined;
}

/** Any body: checked whole by JSON.parse, then read field by field, refusing what the open API does not take. */
export function parseAnyRequestFields(body: string): RequestFields {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw invalidParameter('request body is not valid JSON');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw invalidParameter('request body must be a JSON object');
  }

  const fields: Record<string, string | undefined> = Object.create(null);
  const seen = new Set<string>();
  let at = skipWhitespace(body, 0) + 1; // past '{'
  for (;;) {
    at = skipWhitespace(body, at);
    if (body[at] === '}') break;
    if (body[at] === ',') at = skipWhitespace(body, at + 1);
    const keyEnd = stringEnd(body, at);
    const name = stringValue(body, at, keyEnd);
    checkText(name, name, 'field name');
    if (seen.has(name)) throw invalidParameter(`${name} is given more than once`);
    seen.add(name);
    at = skipWhitespace(body, skipWhitespace(body, keyEnd) + 1); // past ':'
    const first = body[at];
    if (first === '"') {
      const end = stringEnd(body, at);
      const value = stringValue(body, at, end);
      checkText(name, value, 'value');
      fields[name] = value;
      at = end;
    } else if (first === '{' || first === '[') {
      throw invalidParameter(`${name} must be a string, not ${first === '{' ? 'an object' : 'an array'}`);
    } else {
      const token = scalarTokenAt(body, at);
      if (!token) throw invalidParameter(`${name} has an unreadable value`);
      fields[name] = token.value;
      at += token.length;
    }
  }
  return fields;
}

/** One decoder for every request: without `stream`, each decode() starts afresh. */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Decodes the raw body: strict UTF-8, at most MAX_BODY_BYTES. */
export function decodeBody(bytes: Uint8Array): string {
  if (bytes.byteLength > MAX_BODY_BYTES) throw invalidParameter(`request body exceeds ${MAX_BODY_BYTES / 1024} KiB`);
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    throw invalidParameter('request body is not valid UTF-8');
  }
}

/** A field's value, with "" treated as absent (the contract's "empty"). */
export function present(fields: RequestFields, name: string): string | undefined {
  const value = fields[name];
  return value === undefined || value === '' ? undefined : value;
}
