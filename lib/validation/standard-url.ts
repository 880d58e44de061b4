/**
 * Merchants' URLs (notifyUrl, redirectUrl, returnUrl) are stored and shown as the WHATWG URL parser writes them, and
 * only when that is what the merchant wrote: `https:\\evil.example` is https://evil.example/ to a browser, a
 * backslash is a slash, tabs and newlines vanish, `user@` before the host hides where the link goes, `0x7f.1` is
 * 127.0.0.1. A URL whose standard form says something its text does not is refused, naming the field.
 *
 * Differences that change nothing are accepted, and the standard form is what is kept: scheme and host case, a
 * default port written out, the `/` of an empty path, and characters the parser percent-encodes (non-ASCII text,
 * `"`, `<`, `>`…).
 */

/** Why a URL's text is not its standard form, or undefined when it is (up to the differences that change nothing). */
export function nonstandardReason(text: string, url: URL): string | undefined {
  if (text.includes('\\')) return 'must not contain a backslash (browsers read it as /)';
  if (/[\x00-\x1f\x7f]/.test(text)) return 'must not contain control characters (tabs, newlines…)';
  const written = /^https?:\/\/([^/?#]*)(.*)$/is.exec(text);
  if (!written) return 'must start with http:// or https://';
  const [, authority, rest] = written as unknown as [string, string, string];
  if (authority.includes('@')) return 'must not contain user information before the host (user@)';
  if (!sameAuthority(authority, url)) return `has a host that is not written in its standard form (${url.host})`;
  const path = rest === '' || rest.startsWith('?') || rest.startsWith('#') ? `/${rest}` : rest;
  if (!onlyPercentEncoded(path, url.pathname + url.search + url.hash)) return `has a path that does not read as written (it reads ${url.pathname}${url.search})`;
  return undefined;
}

/** The host as written (any letter case) with, if written, a port the parser keeps or drops as the scheme's default. */
function sameAuthority(authority: string, url: URL): boolean {
  const parts = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(authority);
  if (!parts || parts[1]!.toLowerCase() !== url.hostname) return false;
  const port = parts[2];
  if (port === undefined || port === '') return true;
  const defaultPort = url.protocol === 'https:' ? 443 : 80;
  return Number(port) === (url.port === '' ? defaultPort : Number(url.port));
}

/** The UTF-8 percent-encoding of one character, as the URL parser writes it (`é` → `%C3%A9`). */
function percentEncoded(character: string): string {
  return Array.from(Buffer.from(character, 'utf8'), (byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}

/**
 * True when `serialised` is `written` with some characters percent-encoded and nothing else changed: no dot segment
 * resolved, no character dropped or turned into another.
 */
function onlyPercentEncoded(written: string, serialised: string): boolean {
  let at = 0;
  for (const character of written) {
    if (serialised.startsWith(character, at)) {
      at += character.length;
      continue;
    }
    const encoded = percentEncoded(character);
    if (!serialised.startsWith(encoded, at)) return false;
    at += encoded.length;
  }
  return at === serialised.length;
}

/**
 * A stored merchant URL as a page may link to it: its standard form when it is an http(s) URL that reads as
 * written, else null (no link). Orders stored before these rules are shown through this too.
 */
export function renderableUrl(stored: string | null): string | null {
  if (stored === null) return null;
  let url: URL;
  try {
    url = new URL(stored);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return nonstandardReason(stored, url) === undefined ? url.href : null;
}
