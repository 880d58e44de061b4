import type { ChannelTestOrder } from '../channel';

/** A test order from the portal's test-mode panel, as a merchant's server would submit it. */
export const wechatTestOrder: ChannelTestOrder = {
  payMethods: ['native', 'h5'],
  fields: ({ amount, payMethod }) => ({ payMethod, amount }),
};
