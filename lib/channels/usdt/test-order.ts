import type { ChannelTestOrder } from '../channel';
import { isUsdtChainEnabled, USDT_CHAINS, usdtChainNamed } from './usdt-chains';

/**
 * A test order from the portal's test-mode panel, as a merchant's server would submit it: on any network this service
 * reads (TRC20 always, the EVM chains USDT_EVM_CHAINS enables), named by its chain.
 */
export const usdtTestOrder: ChannelTestOrder = {
  get payMethods() {
    return USDT_CHAINS.filter((chain) => isUsdtChainEnabled(chain)).map((chain) => chain.name);
  },
  fields: ({ amount, payMethod }) => ({ pay_usdt: amount, chainType: usdtChainNamed(payMethod)?.chainType ?? '1' }),
};
