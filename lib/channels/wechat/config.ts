import { DomainError } from '../../errors/domain-error';
import { envSetting } from '../../config/env-setting';
import { publicBaseUrl } from '../../orders/identifiers';

export interface WechatConfig {
  /** Where WeChat Pay's API v3 lives (`https://api.mch.weixin.qq.com`; by default the built-in sandbox). */
  baseUrl: string;
  /** Where WeChat sends its payment notifications. */
  notifyUrl: string;
  timeoutMs: number;
}

/** The channel cannot be used as configured (production without WECHAT_API_BASE_URL). */
/** A missing or malformed setting: the channel is not available (its message names the setting, for operators). */
export class WechatNotConfigured extends DomainError {
  constructor(reason: string) {
    super('upstream_failure', { message: reason });
    this.name = 'WechatNotConfigured';
  }
}

/**
 * WECHAT_API_BASE_URL (default: the built-in sandbox, `${PUBLIC_BASE_URL}/sandbox/wechat`; required in production,
 * where it is normally `https://api.mch.weixin.qq.com`), WECHAT_TIMEOUT_MS (default 10 s). The keys are per
 * merchant credential, not configuration.
 */
export function wechatConfig(env: NodeJS.ProcessEnv = process.env): WechatConfig {
  const base = publicBaseUrl();
  const configured = envSetting(env, 'WECHAT_API_BASE_URL');
  if (env.NODE_ENV === 'production' && !configured) {
    throw new WechatNotConfigured('WECHAT_API_BASE_URL is required in production (https://api.mch.weixin.qq.com; the default is the sandbox)');
  }
  const timeout = Number(envSetting(env, 'WECHAT_TIMEOUT_MS') ?? 10_000);
  return {
    baseUrl: (configured ?? `${base}/sandbox/wechat`).replace(/\/+$/, ''),
    notifyUrl: `${base}/v1/api/callback/wechat`,
    timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : 10_000,
  };
}
