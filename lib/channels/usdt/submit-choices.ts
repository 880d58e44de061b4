import type { SubmitFieldChoices } from '../channel';
import type { Locale } from '../../i18n/locales';
import { networkName } from './checkout-network';
import { DEFAULT_CHAIN_TYPE, isUsdtChainEnabled, USDT_CHAINS } from './usdt-chains';

/** The submit's chainType values for the API reference, named as the checkout names them, and whether this service accepts each now. */
export function chainTypeChoices(locale: Locale, env: NodeJS.ProcessEnv = process.env): SubmitFieldChoices {
  return {
    field: 'chainType',
    choices: USDT_CHAINS.map((chain) => ({
      value: chain.chainType,
      meaning: networkName(chain, locale === 'zh-CN' ? 'zh' : 'en'),
      isDefault: chain.chainType === DEFAULT_CHAIN_TYPE,
      accepted: isUsdtChainEnabled(chain, env),
    })),
  };
}
