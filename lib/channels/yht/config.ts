import { DomainError } from '../../errors/domain-error';
import { envSetting } from '../../config/env-setting';
import { publicBaseUrl } from '../../orders/identifiers';

/** Sandbox credentials: fine on a developer's machine and in tests, refused in production. */
export const YHT_SANDBOX_MERCHANT_NO = 'YHT-SANDBOX-10001';
export const YHT_SANDBOX_KEY = 'yht-sandbox-key-do-not-use-in-production';

export interface YhtConfig {
  /** Where the upstream's API lives: `{baseUrl}/api/pay/create`, `{baseUrl}/api/pay/query`. */
  baseUrl: string;
  merchantNo: string;
  key: string;
  /** Where the upstream sends its asynchronous callback. */
  notifyUrl: string;
  timeoutMs: number;
}

/** The channel cannot be used as configured (production without real credentials). */
/** A missing or malformed setting: the channel is not available (its message names the setting, for operators). */
export class YhtNotConfigured extends DomainError {
  constructor(reason: string) {
    super('upstream_failure', { message: reason });
    this.name = 'YhtNotConfigured';
  }
}

/**
 * YHT_BASE_URL (default: the built-in sandbox, `${PUBLIC_BASE_URL}/sandbox/yht`), YHT_MERCHANT_NO and YHT_KEY
 * (default: the sandbox's). In production all three must be set, and never to the sandbox defaults.
 */
export function yhtConfig(env: NodeJS.ProcessEnv = process.env): YhtConfig {
  const base = publicBaseUrl();
  const baseUrl = (envSetting(env, 'YHT_BASE_URL') ?? `${base}/sandbox/yht`).replace(/\/+$/, '');
  const merchantNo = envSetting(env, 'YHT_MERCHANT_NO') ?? YHT_SANDBOX_MERCHANT_NO;
  const key = envSetting(env, 'YHT_KEY') ?? YHT_SANDBOX_KEY;
  if (env.NODE_ENV === 'production') {
    if (!envSetting(env, 'YHT_BASE_URL')) throw new YhtNotConfigured('YHT_BASE_URL is required in production (the default is the sandbox)');
    if (merchantNo === YHT_SANDBOX_MERCHANT_NO) throw new YhtNotConfigured('YHT_MERCHANT_NO must be set to a real merchant number in production');
    if (key === YHT_SANDBOX_KEY) throw new YhtNotConfigured('YHT_KEY must be set to the real key in production');
  }
  const timeout = Number(envSetting(env, 'YHT_TIMEOUT_MS') ?? 10_000);
  return {
    baseUrl,
    merchantNo,
    key,
    notifyUrl: `${base}/v1/api/callback/yht`,
    timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : 10_000,
  };
}
