/**
 * The last line of defence for secrets in logs: whatever a line's text holds, private keys, AppSecrets, API keys,
 * passwords, bearer tokens, credentials in URLs and the process's own secret settings are replaced before it is
 * written. (Structured fields with a secret's name are removed by the logger's redact paths first.)
 */

/** Field names whose values are never logged (the logger's redact paths, and `name=value` / `"name":"value"` in text). */
export const SECRET_FIELD_NAMES = [
  'appSecret', 'app_secret', 'password', 'newPassword', 'currentPassword', 'passwd', 'secret', 'privateKey', 'private_key',
  'merchantPrivateKey', 'apiKey', 'api_key', 'apiV3Key', 'api_v3_key', 'key', 'token', 'authorization', 'cookie', 'appSecretEncrypted',
];

const PEM_PRIVATE_KEY = /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g;
/** A bare base64 DER key (Alipay's keys are often pasted without their PEM lines): 'MII' and a long base64 run. */
const BARE_KEY = /MII[A-Za-z0-9+/]{60,}={0,2}/g;
const NAMED_VALUE = new RegExp(`(["']?\\b(?:${SECRET_FIELD_NAMES.join('|')})\\b["']?\\s*[:=]\\s*["']?)([^"'&\\s,;}]+)`, 'gi');
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9\-._~+/]+=*/gi;
const URL_CREDENTIALS = /(\b[a-z][a-z0-9+.-]*:\/\/[^:/@\s]+:)[^@\s/]+@/gi;

/** The process's secret settings (…SECRET, …KEY, …TOKEN, …PASSWORD), read once: their values never appear in a line. */
let settingValues: string[] | undefined;
function secretSettingValues(): string[] {
  settingValues ??= Object.entries(process.env)
    .filter(([name, value]) => /(SECRET|KEY|TOKEN|PASSWORD)$/.test(name) && value !== undefined && value.length >= 8)
    .map(([, value]) => value!);
  return settingValues;
}

export function scrubText(text: string): string {
  let scrubbed = text
    .replace(PEM_PRIVATE_KEY, '[redacted private key]')
    .replace(BARE_KEY, '[redacted key]')
    .replace(BEARER, '$1 [redacted]') // before the named values: `Authorization: Bearer <token>` names a scheme, then the secret
    .replace(NAMED_VALUE, (match, name: string, value: string) => (value === '[redacted]' ? match : `${name}[redacted]`))
    .replace(URL_CREDENTIALS, '$1[redacted]@');
  for (const value of secretSettingValues()) if (scrubbed.includes(value)) scrubbed = scrubbed.split(value).join('[redacted]');
  return scrubbed;
}

/** Every string in a log line's fields scrubbed (objects and arrays walked to a small depth). */
export function scrubValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (value === null || typeof value !== 'object' || depth > 4) return value;
  if (value instanceof Error) return { type: value.name, message: scrubText(value.message), stack: value.stack === undefined ? undefined : scrubText(value.stack) };
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, depth + 1));
  const scrubbed: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) scrubbed[key] = SECRET_FIELD_NAMES.includes(key) ? '[redacted]' : scrubValue(item, depth + 1);
  return scrubbed;
}
