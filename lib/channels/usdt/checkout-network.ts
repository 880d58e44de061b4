import { USDT_CHAINS, type UsdtChain } from './usdt-chains';

export type CheckoutNetworkLanguage = 'en' | 'zh';

const ZH_NETWORK: Record<string, string> = { TRON: '波场', Ethereum: '以太坊', 'BNB Smart Chain': '币安智能链', 'Polygon PoS': 'Polygon PoS' };

/** How the checkout names a chain: the token standard and the network, e.g. "BEP20 (BNB Smart Chain)", "BEP20（币安智能链）". */
export function networkName(chain: UsdtChain, language: CheckoutNetworkLanguage = 'en'): string {
  return language === 'zh' ? `${chain.standard}（${ZH_NETWORK[chain.network] ?? chain.network}）` : `${chain.standard} (${chain.network})`;
}

/**
 * The warning under the network: pay on this network only; the other networks the same wallet may offer are named,
 * because a transfer on one of them reaches no address the service reads and is lost.
 */
export function networkWarning(chain: UsdtChain, language: CheckoutNetworkLanguage): string {
  const others = USDT_CHAINS.filter((other) => other !== chain).map((other) => other.standard);
  if (language === 'zh') return `仅支持 ${networkName(chain, 'zh')}网络的 USDT。通过其他网络（${others.join('、')}）转账将会丢失。`;
  return `Send USDT on the ${networkName(chain)} network only. Transfers on other networks (${others.join(', ')}) are lost.`;
}
