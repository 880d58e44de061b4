import { DomainError } from '../../errors/domain-error';
import { envSetting } from '../../config/env-setting';
import { publicBaseUrl } from '../../orders/identifiers';

/** The ALIPAY channel's own settings; the merchant's keys come from its approved credential, never from here. */
export interface AlipayConfig {
  /** Alipay's OpenAPI v2 gateway (`https://openapi.alipay.com/gateway.do`), or the built-in sandbox's. */
  gatewayUrl: string;
  /** Where Alipay sends its asynchronous notifications. */
  notifyUrl: string;
  timeoutMs: number;
}

/** The channel cannot be used as configured (production without a gateway). */
/** A missing or malformed setting: the channel is not available (its message names the setting, for operators). */
export class AlipayNotConfigured extends DomainError {
  constructor(reason: string) {
    super('upstream_failure', { message: reason });
    this.name = 'AlipayNotConfigured';
  }
}

/** The payment window of an ALIPAY order and of its payment link (spec: 30 minutes, fixed). */
export const ALIPAY_PAY_WINDOW_MINUTES = 30;
/** A new ALIPAY order is first asked about after this long (the payer is still on the way to Alipay). */
export const ALIPAY_FIRST_CHECK_AFTER_MS = 60_000;

/**
 * ALIPAY_GATEWAY_URL (default: the built-in sandbox, `${PUBLIC_BASE_URL}/sandbox/alipay/gateway.do`); in production it
 * must be set (Alipay's is `https://openapi.alipay.com/gateway.do`). ALIPAY_TIMEOUT_MS bounds each server call.
 */
export function alipayConfig(env: NodeJS.ProcessEnv = process.env): AlipayConfig {
  const base = publicBaseUrl();
  const configured = envSetting(env, 'ALIPAY_GATEWAY_URL');
  if (!configured && env.NODE_ENV === 'production') {
    throw new AlipayNotConfigured('ALIPAY_GATEWAY_URL is required in production (the default is the sandbox)');
  }
  const gatewayUrl = configured ?? `${base}/sandbox/alipay/gateway.do`;
  try {
    new URL(gatewayUrl);
  } catch {
    throw new AlipayNotConfigured(`ALIPAY_GATEWAY_URL is not a URL: ${gatewayUrl}`);
  }
  const timeout = Number(envSetting(env, 'ALIPAY_TIMEOUT_MS') ?? 10_000);
  return {
    gatewayUrl,
    notifyUrl: `${base}/v1/api/callback/alipay`,
    timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : 10_000,
  };
}
