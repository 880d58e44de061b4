import type { ChannelTestOrder } from '../channel';

/** A test order from the portal's test-mode panel, as a merchant's server would submit it. */
export const usdtTestOrder: ChannelTestOrder = {
  payMethods: ['TRC20'],
  fields: ({ amount }) => ({ pay_usdt: amount, chainType: '1' }),
};
