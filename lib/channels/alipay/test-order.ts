import type { ChannelTestOrder } from '../channel';

/** A test order from the portal's test-mode panel, as a merchant's server would submit it. */
export const alipayTestOrder: ChannelTestOrder = {
  payMethods: ['web', 'wap'],
  fields: ({ amount, payMethod }) => ({ payMethod, amount }),
};
