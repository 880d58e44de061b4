import { usdtReconciliation } from './usdt-reconciliation';
import type { Channel } from '../channel';
import { usdtNotices } from './notices';
import { usdtOpenApi } from './open-api';
import { formatMinorUnits } from '../../money/decimal-amount';
import { usdtNotificationExample, usdtQueryExample, usdtSubmitExample } from './api-examples';
import { usdtTestOrder } from './test-order';
import { chainWatcherJob, usdtExpiryJob } from './chain/chain-jobs';
import { chainConfig, describeChainAccess } from './chain/chain-config';
import { describeEvmChains, usdtEvmWatcherJob } from './evm/usdt-evm-job';
import { describeRequestBudgets, usdtRequestBudgets } from './request-budgets';
import { listTransferItems } from './operator/transfer-attention';
import { trc20WatcherHealth } from './chain/watcher-health';
import { usdtPoolPressure } from './operator/pool-pressure';
import { usdtFirstRun } from './first-run';
import { usdtSlotCooldownMinutes } from './slot-cooldown';
import { findUsdtCheckout, type UsdtCheckout } from './checkout-view';
import { createUsdtOrder } from './create-usdt-order';
import { parseUsdtSubmit } from './usdt-request';
import { usdtCreateData, usdtQueryData } from './usdt-view';
import { chainTypeChoices } from './submit-choices';
import { usdtPaymentTrail } from './order-transfers';

/** USDT on TRC20 and the EVM chains (ERC20, BEP20, Polygon): paid on chain to the service's receiving addresses, found by the chain watcher (no upstream callback). */
export const usdtChannel: Channel<UsdtCheckout> = {
  // Its name and how its notices name an order, written once in notices.ts (which its pollers load alone).
  ...usdtNotices,
  label: 'USDT (TRC20, ERC20, BEP20, Polygon)',
  successMessage: 'success',
  async submit({ db, merchant, fields, requestId, merchantCheck, isTest }) {
    // The spread last: in V8, properties added after a spread make a slow object (about 4 µs for this one).
    const { order } = await createUsdtOrder(db, merchant.id, { requestId, merchantCheck, isTest, ...parseUsdtSubmit(fields) });
    return usdtCreateData(order);
  },
  submitConfirmsMerchant: true,
  queryData: (order) => usdtQueryData(order),
  checkoutStatus: (db, payToken, now) => findUsdtCheckout(db, payToken, now),
  checkoutView: (db, payToken, now) => findUsdtCheckout(db, payToken, now),
  paymentTrail: usdtPaymentTrail,
  notificationFields: (order) => ({ orderNo: order.orderNo, pay_usdt: formatMinorUnits(order.payAmountMinor) }),
  describeStartup: () => [describeChainAccess(chainConfig()), describeEvmChains(), ...describeRequestBudgets()],
  checkSettings: () => void usdtSlotCooldownMinutes(),
  firstRun: usdtFirstRun,
  devSandbox: 'sandbox/evm/dev-sandbox-evm.ts',
  // The simulated TronGrid (and its fault hooks); its wallet form, /sandbox/tron/transfer, is a page's form.
  sandboxApiPaths: [/^\/sandbox\/tron\/(?!transfer$)/],
  attentionTransfers: listTransferItems,
  watcherHealth: trc20WatcherHealth,
  poolPressure: usdtPoolPressure,
  requestBudgets: () => usdtRequestBudgets(),
  refunds: {
    offered: false,
    refusal:
      'USDT refunds are not made by this service, which holds no keys: send the USDT from your own wallet, then record the refund (amount, transaction id, note) on the order page of the portal',
  },
  jobs: [chainWatcherJob, usdtEvmWatcherJob, usdtExpiryJob],
  reconciliation: usdtReconciliation,
  examples: { submit: usdtSubmitExample, query: usdtQueryExample, notification: usdtNotificationExample },
  testOrder: usdtTestOrder,
  openApi: usdtOpenApi,
  submitChoices: (locale) => [chainTypeChoices(locale)],
};
