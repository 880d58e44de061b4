import { envSetting } from './env-setting';
import { guessableReason } from './secret-strength';
import { StartupRefusal } from './startup-refusal';

/**
 * Bearer tokens the service accepts from callers, by the setting that holds each. Like the secrets
 * (process-secrets.ts) they are checked when the process starts: a token that breaks the rule stops it with a line
 * naming the setting and the rule, where it used to be ignored and every caller got 401 without a word.
 */
export const BEARER_TOKEN_SETTINGS: readonly { name: string; use: string }[] = [
  { name: 'HEALTH_DETAILS_TOKEN', use: 'a monitor’s Authorization: Bearer token for GET /healthz?details (and GET /metrics)' },
  { name: 'METRICS_TOKEN', use: 'Prometheus’ Authorization: Bearer token for GET /metrics (web) and the worker’s METRICS_PORT' },
];

/** 32 characters (about 190 bits of base64) keep a token out of reach of guessing, as NEXTAUTH_SECRET's 32. */
export const TOKEN_MIN_LENGTH = 32;
/** RFC 6750's token68 characters: what an Authorization: Bearer header can carry unquoted and unescaped. */
const TOKEN_CHARACTERS = /^[A-Za-z0-9\-._~+/]+=*$/;

export const TOKEN_RULE = `must be at least ${TOKEN_MIN_LENGTH} characters of A–Z, a–z, 0–9 and - . _ ~ + / (= only at the end), e.g. \`openssl rand -base64 32\``;

/** What is wrong with a token's value, or undefined when it keeps the rule. */
function tokenProblem(value: string): string | undefined {
  if (value.length < TOKEN_MIN_LENGTH) return `${TOKEN_RULE} (it has ${value.length})`;
  if (!TOKEN_CHARACTERS.test(value)) return `${TOKEN_RULE} (it has other characters)`;
  return guessableReason(value);
}

/** Refuses to start (StartupRefusal naming the setting and the rule) when a configured token breaks the rule. */
export function checkTokenSettings(env: NodeJS.ProcessEnv = process.env): void {
  for (const { name } of BEARER_TOKEN_SETTINGS) {
    const value = envSetting(env, name);
    const problem = value === undefined ? undefined : tokenProblem(value);
    if (problem) throw new StartupRefusal(name, problem);
  }
}

/** The token a caller must present, or undefined when none is configured (or it breaks the rule: start refused it). */
export function configuredToken(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const value = envSetting(env, name);
  return value !== undefined && tokenProblem(value) === undefined ? value : undefined;
}
