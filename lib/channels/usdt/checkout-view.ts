import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { orders, receivingAddresses } from '../../db/schema';
import { formatMinorUnits } from '../../money/decimal-amount';
import { usdtStatus } from './usdt-view';
import { networkName, networkWarning } from './checkout-network';
import { isEvmChainName } from './evm/evm-chains';
import { orderMetaMaskLink } from './evm/metamask-link';
import { usdtChainByType, type UsdtChain } from './usdt-chains';
import { explorerTransactionUrl } from './explorer-links';
import { isChainWatcherBehind } from './watcher-delay';
import { renderableUrl } from '../../validation/standard-url';
import type { PaymentTrailTransfer } from '../channel';
import { unpaidOrderTransfers } from './order-transfers';

export interface UsdtCheckout {
  orderNo: string;
  payUsdt: string;
  address: string;
  /** The chain (receiving_addresses.chain) and how the page names it, prominently. */
  chain: UsdtChain;
  network: string;
  networkWarning: { en: string; zh: string };
  /** On an EVM chain: MetaMask's link that opens the transfer with the token, chain, address and amount filled in. */
  metaMaskUrl: string | null;
  /** The sandbox wallet of the order's chain (shown only when the sandbox is on). */
  sandboxWalletPath: string;
  status: 'pending' | 'paid' | 'expired';
  /** The chain's watcher is known to be behind: a payment made in time may not be confirmed yet (./watcher-delay.ts). */
  watcherBehind: boolean;
  /** Transfers the chain linked to the order that did not pay it (a short amount, a late one), oldest first. */
  unpaidTransfers: PaymentTrailTransfer[];
  unpaidSeen: number;
  /** The paying transaction and where the chain's explorer shows it, once paid. */
  transaction: { id: string; explorerUrl: string | null } | null;
  expiresAt: Date;
  secondsLeft: number;
  productName: string | null;
  redirectUrl: string | null;
}

/** What the payer's checkout page shows, by the payUrl token; undefined for unknown tokens and non-USDT orders. */
export async function findUsdtCheckout(db: Database, payToken: string, now = new Date()): Promise<UsdtCheckout | undefined> {
  const [row] = await db
    .select({ order: orders, address: receivingAddresses.address })
    .from(orders)
    .innerJoin(receivingAddresses, eq(receivingAddresses.id, orders.receivingAddressId))
    .where(eq(orders.payToken, payToken))
    .limit(1);
  if (!row || row.order.channel !== 'USDT') return undefined;
  const status = usdtStatus(row.order, now);
  const chain = usdtChainByType(row.order.chainType ?? '1') ?? usdtChainByType('1')!;
  const watcherBehind = status === '1' ? false : await isChainWatcherBehind(db, chain.name, now);
  const payUsdt = formatMinorUnits(row.order.payAmountMinor);
  const unpaidTransfers = status === '1' ? [] : await unpaidOrderTransfers(db, row.order);
  const walletQuery = new URLSearchParams({ ...(chain.name === 'TRC20' ? {} : { chain: chain.name }), to: row.address, amount: payUsdt });
  return {
    orderNo: row.order.orderNo,
    payUsdt,
    address: row.address,
    chain,
    network: networkName(chain),
    networkWarning: { en: networkWarning(chain, 'en'), zh: networkWarning(chain, 'zh') },
    metaMaskUrl: isEvmChainName(chain.name) ? (orderMetaMaskLink(chain.name, row.address, row.order.payAmountMinor) ?? null) : null,
    sandboxWalletPath: `${chain.name === 'TRC20' ? '/sandbox/tron' : '/sandbox/evm'}?${walletQuery}`,
    status: status === '1' ? 'paid' : status === '2' ? 'expired' : 'pending',
    watcherBehind,
    unpaidTransfers,
    unpaidSeen: unpaidTransfers.length,
    transaction: status === '1' && row.order.tradeNo ? { id: row.order.tradeNo, explorerUrl: explorerTransactionUrl(chain.name, row.order.tradeNo) ?? null } : null,
    expiresAt: row.order.expiresAt,
    secondsLeft: Math.max(0, Math.floor((row.order.expiresAt.getTime() - now.getTime()) / 1000)),
    productName: row.order.productName,
    // Re-read as a link: an order stored before the standard-form rule may hold `https:\\evil.example`.
    redirectUrl: renderableUrl(row.order.redirectUrl),
  };
}
